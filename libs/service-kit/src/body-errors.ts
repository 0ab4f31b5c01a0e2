import type { RequestHandler, Response } from 'express';
import { DomainError, validationError } from '@register/problem';

const BODY_ERROR = 'bodyError';

/** The refusal of a body the kit deferred (see deferBodyErrors), thrown where the body is parsed. */
export function deferredBodyError(res: Response): Error | undefined {
  return res.locals[BODY_ERROR] as Error | undefined;
}

/**
 * A body that is not JSON (or is hostile JSON) is refused by the operation, after its identity checks and its
 * `load`: 401, 403 and 404 come before 400 (decisions §11: the webhook's 401 before 400). A body too large
 * (413) or in another encoding (415) is refused at once: nothing of it was read.
 */
export function deferBodyErrors(parser: RequestHandler): RequestHandler {
  return (req, res, next) => {
    parser(req, res, (err?: unknown) => {
      const type = (err as { type?: unknown } | null | undefined)?.type;
      if (type === 'entity.parse.failed' || err instanceof DomainError) {
        res.locals[BODY_ERROR] =
          err instanceof DomainError
            ? err
            : validationError(
                [{ field: '', code: 'invalid_json', detail: 'The body is not valid JSON.' }],
                'The request body is not valid JSON.',
              );
        req.body = undefined;
        return next();
      }
      next(err as Error | undefined);
    });
  };
}
