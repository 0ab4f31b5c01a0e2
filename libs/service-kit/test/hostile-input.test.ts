import { findHostileJson, hasBadCharacter } from '../src/hostile-input';

describe('hostile JSON (ADR 0015)', () => {
  it.each([
    ['a NUL in a value', { draft: { naam: 'a\u0000b' } }, 'draft.naam', 'invalid_characters'],
    ['a NUL in a key', { draft: { 'k\u0000': 1 } }, 'draft.k\u0000', 'invalid_characters'],
    ['a lone high surrogate', { draft: ['\ud800'] }, 'draft[0]', 'invalid_characters'],
    ['a lone low surrogate', { x: 'a\udc00' }, 'x', 'invalid_characters'],
  ])('when the body holds %s, then it names the place', (_what, body, field, code) => {
    expect(findHostileJson(body)).toMatchObject({ field, code });
  });

  it('when a value is nested 5,000 arrays deep, then it is too deep (and nothing overflows)', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = [deep];
    expect(findHostileJson({ draft: deep })).toMatchObject({ code: 'too_deep' });
  });

  it('when nesting is exactly 64 levels, then it passes; 65 is refused', () => {
    const nest = (n: number) => {
      let v: unknown = 'leaf';
      for (let i = 0; i < n; i++) v = { a: v };
      return v;
    };
    // The body itself is the first of the nested objects: 64 of them are 64 levels.
    expect(findHostileJson(nest(64))).toBeNull();
    expect(findHostileJson(nest(65))).toMatchObject({ code: 'too_deep' });
  });

  it('when strings hold proper pairs and ordinary text, then nothing is found', () => {
    expect(findHostileJson({ emoji: '😀 café', list: ['ok', { deep: 'fine' }] })).toBeNull();
    expect(hasBadCharacter('😀')).toBe(false);
    expect(hasBadCharacter('\ud83d')).toBe(true);
  });
});
