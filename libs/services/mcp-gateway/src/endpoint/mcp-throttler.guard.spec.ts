import { toolCallName } from './mcp-throttler.guard';

describe('toolCallName (what a refused request is audited as)', () => {
  it('names the tool of a single tools/call', () => {
    expect(toolCallName({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_case_by_id', arguments: {} } })).toBe('get_case_by_id');
  });

  it.each([
    ['tools/list', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } }]],
    ['no name', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }],
    ['no body', undefined],
  ])('is undefined for %s', (_label, body) => {
    expect(toolCallName(body)).toBeUndefined();
  });
});
