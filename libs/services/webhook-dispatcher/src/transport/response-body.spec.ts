import { utf8Prefix } from './response-body';

describe('utf8Prefix', () => {
  const text = 'aé€😀b'; // 1 + 2 + 3 + 4 + 1 bytes
  const bytes = Buffer.from(text, 'utf8');

  it.each([
    [0, ''],
    [1, 'a'],
    [2, 'a'],
    [3, 'aé'],
    [4, 'aé'],
    [5, 'aé'],
    [6, 'aé€'],
    [9, 'aé€'],
    [10, 'aé€😀'],
    [11, 'aé€😀b'],
    [100, 'aé€😀b'],
  ])('cuts %i bytes to %j', (max, expected) => {
    const prefix = utf8Prefix(bytes, max);
    expect(prefix.length).toBeLessThanOrEqual(max);
    expect(prefix.toString('utf8')).toBe(expected);
  });

  it('still cuts within the limit when the bytes are not UTF-8', () => {
    expect(utf8Prefix(Buffer.from([0x80, 0x80, 0x80, 0x80, 0x80]), 4).length).toBeLessThanOrEqual(4);
  });
});
