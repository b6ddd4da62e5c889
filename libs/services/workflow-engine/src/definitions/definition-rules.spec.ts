import { canonicalJson, definitionChecksum, definitionKeyProblem, definitionLimitProblem, nodeCountOf } from './definition-rules';

describe('definition keys', () => {
  it.each(['a', 'contract-approval', 'nda-v2', '9', 'a'.repeat(64)])('accepts %s', (key) => expect(definitionKeyProblem(key)).toBeUndefined());

  it.each(['', 'A', 'contract_approval', '-a', 'a-', 'a b', 'é', 'a'.repeat(65), 'a/b'])('refuses %j', (key) =>
    expect(definitionKeyProblem(key)).toMatch(/lower-case/),
  );

  it.each(['versions', 'schema', 'designer-schema', 'validate', 'simulate'])('refuses the route segment %s', (key) =>
    expect(definitionKeyProblem(key)).toMatch(/reserved/),
  );
});

describe('definition limits', () => {
  const limits = { maxBytes: 100, maxNodes: 2 };

  it('counts the nodes of every sequence, those inside gateway branches included', () => {
    expect(nodeCountOf({ nodes: [{}, {}, {}] })).toBe(3);
    const gateway = { kind: 'exclusive', branches: [{ nodes: [{}, {}] }, { nodes: [{ kind: 'parallel', branches: [{ nodes: [{}] }] }] }] };
    expect(nodeCountOf({ nodes: [gateway, {}] })).toBe(2 + 2 + 1 + 1);
    expect(nodeCountOf({ nodes: 'x' })).toBe(0);
    expect(nodeCountOf({})).toBe(0);
  });

  it('refuses more bytes than allowed, counted in UTF-8', () => {
    expect(definitionLimitProblem({ name: 'x'.repeat(80) }, limits)).toBeUndefined();
    expect(definitionLimitProblem({ name: 'é'.repeat(80) }, limits)).toMatch(/bytes of JSON; at most 100/);
  });

  it('refuses more nodes than allowed', () => {
    expect(definitionLimitProblem({ nodes: [1, 2] }, limits)).toBeUndefined();
    expect(definitionLimitProblem({ nodes: [1, 2, 3] }, limits)).toBe('The definition has 3 nodes; at most 2 are accepted.');
  });
});

describe('definition checksums', () => {
  it('do not depend on key order at any level', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    expect(definitionChecksum({ a: 1, b: { c: 2, d: 3 } })).toBe(definitionChecksum({ b: { d: 3, c: 2 }, a: 1 }));
  });

  it('change with any value', () => {
    expect(definitionChecksum({ a: 1 })).not.toBe(definitionChecksum({ a: 2 }));
    expect(definitionChecksum({ a: [1, 2] })).not.toBe(definitionChecksum({ a: [2, 1] }));
  });
});
