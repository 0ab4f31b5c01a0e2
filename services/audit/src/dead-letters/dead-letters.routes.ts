import { z } from 'zod';
import { audit } from '@register/contracts';
import { validationError, zodIssuesToFieldErrors } from '@register/problem';
import { defineOperation, nextLink } from '@register/service-kit';
import type { Context } from '../context';
import { discard, readDeadLetters, replay, seqOf, toView } from './dead-letters';
import { DeadLetterListParams, DeadLetterListQuery, DeadLetterParams, DeadLetterView } from './dead-letters.schemas';

function parseQuery(raw: unknown): DeadLetterListQuery {
  const parsed = DeadLetterListQuery.safeParse(raw);
  if (!parsed.success) throw validationError(zodIssuesToFieldErrors(parsed.error));
  return parsed.data;
}

const listDeadLetters = defineOperation({
  rule: audit.routes.deadLetters,
  operationId: 'listDeadLetters',
  summary: 'List the events a consumer gave up on',
  description:
    'Events a durable consumer failed to handle on every delivery, oldest first: ' +
    'which consumer, the subject, why and when. The event data itself is not shown ' +
    '(it may hold personal data). Paged with `limit` and `cursor` (`Link: rel="next"`).',
  query: DeadLetterListParams,
  responses: { 200: z.array(DeadLetterView) },
  handle: async (ctx: Context, { query, req }) => {
    const page = await readDeadLetters(ctx, parseQuery(query));
    const headers: Record<string, string> = page.nextCursor ? { Link: nextLink(req.originalUrl, page.nextCursor) } : {};
    return { body: page.letters.map(toView), headers };
  },
});

const replayDeadLetter = defineOperation({
  rule: audit.routes.replayDeadLetter,
  operationId: 'replayDeadLetter',
  summary: 'Deliver a dead letter to its consumer again',
  description:
    'Publishes the event again on its own subject (consumers are idempotent by event id, ' +
    'so it is processed once) and removes the dead letter. Writes a `dead-letter:replay` audit row.',
  params: DeadLetterParams,
  responses: { 202: null },
  handle: async (ctx: Context, { params, identity }) => {
    await replay(ctx, identity, seqOf(params.id));
    return { status: 202 };
  },
});

const discardDeadLetter = defineOperation({
  rule: audit.routes.discardDeadLetter,
  operationId: 'discardDeadLetter',
  summary: 'Discard a dead letter',
  description: 'Removes the dead letter without delivering it. Writes a `dead-letter:discard` audit row.',
  params: DeadLetterParams,
  responses: { 204: null },
  handle: async (ctx: Context, { params, identity }) => {
    await discard(ctx, identity, seqOf(params.id));
    return {};
  },
});

export const deadLetterRoutes = [listDeadLetters, replayDeadLetter, discardDeadLetter];
