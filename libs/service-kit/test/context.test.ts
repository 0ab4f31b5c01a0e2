import { acceptCorrelationId } from '../src/context';

describe('correlation id (ADR 0003)', () => {
  it.each(['abc', 'A.b_c:d-1', 'x'.repeat(128)])('when %s is sent, then it is kept', (id) =>
    expect(acceptCorrelationId(id)).toBe(id),
  );
  it.each(['', 'has space', 'x'.repeat(129), 'ü', undefined, ['a', 'b']])(
    'when %j is sent, then a new UUID is made',
    (id) => {
      expect(acceptCorrelationId(id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    },
  );
});
