import { MAX_INPUT_DEPTH, unstorableInput } from './storable-input';

describe('unstorableInput', () => {
  it('accepts ordinary input, emoji and all', () => {
    expect(unstorableInput({ name: 'Zoë 👩‍⚖️', tags: ['a', 'b'], n: 1, none: null })).toEqual({});
  });

  it('names each field holding a NUL or a lone surrogate, in values and keys', () => {
    expect(unstorableInput({ a: 'x\u0000y', b: { c: ['ok', 'bad\ud800'] }, ['k\u0000']: 1 })).toEqual({
      a: ['must not contain NUL characters'],
      'b.c.1': ['must be well-formed Unicode (no unpaired surrogates)'],
      body: ['field names must not contain NUL characters'],
    });
    expect(unstorableInput('a\u0000b', 'featureCode')).toEqual({ featureCode: ['must not contain NUL characters'] });
  });

  it('refuses field names of Object.prototype members at any depth, under their own name', () => {
    expect(
      unstorableInput(JSON.parse('{"__proto__":{"polluted":1},"a":{"constructor":{"prototype":{}}},"b":[{"hasOwnProperty":1}],"toString":1,"ok":1}')),
    ).toEqual(
      JSON.parse(
        '{"__proto__":["property __proto__ should not exist"],"a.constructor":["property constructor should not exist"],"b.0.hasOwnProperty":["property hasOwnProperty should not exist"],"toString":["property toString should not exist"]}',
      ),
    );
    const nul = unstorableInput(JSON.parse('{"__proto__":"a\\u0000b"}'));
    expect(Object.keys(nul)).toEqual(['__proto__']);
  });

  it('refuses nesting past the limit without recursing (1,500 and 100,000 levels)', () => {
    for (const levels of [1_500, 100_000]) {
      let deep: unknown = 1;
      for (let i = 0; i < levels; i++) deep = [deep];
      const errors = unstorableInput({ deep });
      expect(Object.values(errors)).toEqual([[`must not nest deeper than ${MAX_INPUT_DEPTH} levels`]]);
    }
    let ok: unknown = 1;
    for (let i = 0; i < MAX_INPUT_DEPTH - 1; i++) ok = [ok];
    expect(unstorableInput(ok)).toEqual({});
  });
});
