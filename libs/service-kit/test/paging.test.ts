import { z } from 'zod';
import { DomainError } from '@register/problem';
import { decodeCursor, encodeCursor, nextLink } from '../src/paging';

const position = z.object({ at: z.string(), id: z.string() });

describe('cursors (ADR 0014)', () => {
  it('when a cursor this service issued comes back, then it names the same position', () => {
    expect(decodeCursor(encodeCursor({ at: '2026-11-22T09:30:00.000Z', id: 'a' }), position)).toEqual({
      at: '2026-11-22T09:30:00.000Z',
      id: 'a',
    });
  });

  it('when no cursor is sent, then there is no position', () => {
    expect(decodeCursor(undefined, position)).toBeNull();
  });

  it.each(['', 'garbage', encodeCursor({ other: 1 })])(
    'when the cursor is %j, then it is a validation problem on the field cursor',
    (cursor) => {
      expect(() => decodeCursor(cursor, position)).toThrow(DomainError);
      try {
        decodeCursor(cursor, position);
      } catch (err) {
        expect((err as DomainError).code).toBe('validation');
        expect((err as DomainError).errors[0]?.field).toBe('cursor');
      }
    },
  );

  it('when a next page exists, then the Link keeps the other query parameters', () => {
    expect(nextLink('/api/v1/werkvoorraad?limit=100', 'abc')).toBe(
      '</api/v1/werkvoorraad?limit=100&cursor=abc>; rel="next"',
    );
  });
});
