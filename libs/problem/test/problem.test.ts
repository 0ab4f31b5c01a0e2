import { PROBLEM_TYPES, problemDocument, problemPage } from '../src';

describe('problem documents (ADR 0004)', () => {
  it('when built, then every member is present with the relative type and the correlation id', () => {
    expect(problemDocument('conflict', { detail: 'd', instance: '/api/v1/x', correlationId: 'c' })).toEqual({
      type: '/problems/conflict',
      title: PROBLEM_TYPES.conflict.title,
      status: 409,
      detail: 'd',
      instance: '/api/v1/x',
      correlationId: 'c',
    });
  });

  it('when it is a validation problem, then errors is never empty', () => {
    expect(problemDocument('validation', { detail: 'bad', instance: '/x' }).errors).toEqual([
      { field: '', code: 'invalid', detail: 'bad' },
    ]);
    const errors = [{ field: 'uren', code: 'too_small', detail: 'at least 1' }];
    expect(problemDocument('validation', { detail: 'bad', instance: '/x', errors }).errors).toEqual(errors);
  });

  it('when the slugs named by the decisions are looked up, then each has its status and a page', () => {
    const expected: Record<string, number> = {
      unauthenticated: 401,
      forbidden: 403,
      validation: 400,
      conflict: 409,
      'scholing-incompleet': 400,
      'invalid-phone-number': 422,
      'step-up-required': 403,
      'payload-too-large': 413,
      'unsupported-media-type': 415,
      'idempotency-key-reused': 422,
      'idempotency-request-in-progress': 409,
      unavailable: 503,
    };
    for (const [slug, status] of Object.entries(expected)) {
      expect(PROBLEM_TYPES[slug as keyof typeof PROBLEM_TYPES].status).toBe(status);
      expect(problemPage(slug)).toContain(`/problems/${slug}`);
    }
    expect(problemPage('<script>')).toBeNull();
  });
});
