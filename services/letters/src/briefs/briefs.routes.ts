import type { Identity } from '@register/authz';
import type { Request, Response } from 'express';
import { letters } from '@register/contracts';
import { defineOperation, sendCached, type CachedBody } from '@register/service-kit';
import type { Context } from '../context';
import {
  approveBrief,
  rejectBrief,
  requireReviewable,
  resetBrief,
  saveBrief,
  sendBrief,
  submitBrief,
} from './brief-operations';
import { exampleSections } from './brief-example';
import { BriefQuery, BriefView, RejectBriefRequest, SaveBriefRequest } from './briefs.schemas';
import { requireBrief, requireBriefExists, viewBodyOf } from './find-brief';

const address = (query: { referentie?: string | undefined }) => ({ referentie: query.referentie ?? null });
type Addressed = { query: { referentie?: string | undefined } };
const loadBrief = (ctx: Context, { query }: Addressed) => requireBrief(ctx, address(query));
/** Writes only check that the brief exists (404 before the body's 400); they read it under lock. */
const briefExists = (ctx: Context, { query }: Addressed) => requireBriefExists(ctx, address(query));
/** A view as `res.json` would send it: `no-store` (ADR 0015), its ETag, 304 to a GET naming that ETag. */
const sendView = (req: Request, res: Response, body: CachedBody) => sendCached(req, res, body, 'no-store');
const ADDRESSING =
  'Without `referentie` it addresses the shared working brief (the demo ' +
  "case of 900000001); with one, that case's brief (unknown: a bare 404).";

const getBrief = defineOperation({
  rule: letters.routes.getBrief,
  operationId: 'getBrief',
  summary: 'Read a letter',
  description:
    `The letter, the passages it may use, the caller's \`decisions\`, ` +
    `the letterhead and the case context (register number masked). ${ADDRESSING}`,
  query: BriefQuery,
  problems: [404],
  load: loadBrief,
  responses: { 200: BriefView },
  handle: (ctx: Context, { loaded, identity, req, res }) => sendView(req, res, viewBodyOf(ctx, loaded, identity)),
});

const putBrief = defineOperation({
  rule: letters.routes.saveBrief,
  operationId: 'saveBrief',
  summary: 'Replace the sections of a letter',
  description:
    `Needs \`canEdit\` (a drafter, status \`concept\` or \`afgekeurd\`; otherwise 409). ` +
    `The six sections come in order; locked ones (\`kenmerk\`, \`bezwaar\`) ` +
    `unchanged. A 400 names each offending node in \`errors[].field\` ` +
    `(\`sections[2].blocks[0].content.paragraphs[1].nodes[3].key\`). ${ADDRESSING}`,
  query: BriefQuery,
  load: briefExists,
  body: SaveBriefRequest,
  example: { sections: exampleSections() },
  responses: { 200: BriefView },
  problems: [404, 409],
  handle: async (ctx: Context, { query, identity, body, req, res }) =>
    sendView(req, res, await saveBrief(ctx, address(query), identity, body.sections)),
});

const submit = defineOperation({
  rule: letters.routes.submitBrief,
  operationId: 'submitBrief',
  summary: 'Submit a letter for approval',
  description:
    `Needs \`canEdit\`. Records the caller as \`drafterId\`, ` +
    `\`submittedBy\` and \`submittedAt\`, and freezes the content for review. ${ADDRESSING}`,
  query: BriefQuery,
  load: briefExists,
  responses: { 200: BriefView },
  problems: [404, 409],
  handle: async (ctx: Context, { query, identity, req, res }) =>
    sendView(req, res, await submitBrief(ctx, address(query), identity)),
});

const approve = defineOperation({
  rule: letters.routes.approveBrief,
  operationId: 'approveBrief',
  summary: 'Approve a letter',
  description:
    `Needs \`canApprove\`: an approver who is not the letter's drafter (403), ` +
    `status \`ter-goedkeuring\` (409). Of two approvals at once one succeeds. ${ADDRESSING}`,
  query: BriefQuery,
  load: briefExists,
  responses: { 200: BriefView },
  problems: [404, 409],
  handle: async (ctx: Context, { query, identity, req, res }) =>
    sendView(req, res, await approveBrief(ctx, address(query), identity)),
});

const reject = defineOperation({
  rule: letters.routes.rejectBrief,
  operationId: 'rejectBrief',
  summary: 'Reject a letter',
  description:
    `Needs \`canReject\` (as approve). Records \`rejectedBy\`, ` +
    `\`rejectedAt\` and \`comments\`; the drafter may edit again. ${ADDRESSING}`,
  query: BriefQuery,
  // Rejecting one's own letter is refused (403) before the body is looked at (400).
  load: (ctx: Context, { query, identity }: Addressed & { identity: Identity | null }) =>
    requireReviewable(ctx, address(query), identity),
  body: RejectBriefRequest,
  example: { comments: 'Graag de reden van afwijzing concreter maken.' },
  responses: { 200: BriefView },
  problems: [404, 409],
  handle: async (ctx: Context, { query, identity, body, req, res }) =>
    sendView(req, res, await rejectBrief(ctx, address(query), identity, body.comments ?? null)),
});

const send = defineOperation({
  rule: letters.routes.sendBrief,
  operationId: 'sendBrief',
  summary: 'Send an approved letter',
  description:
    `Needs \`canSend\` (status \`goedgekeurd\`, else 409). Records \`sentAt\` and pins the letter ` +
    `to the letterhead version published now; later publishes do not change it. ${ADDRESSING}`,
  query: BriefQuery,
  load: briefExists,
  responses: { 200: BriefView },
  problems: [404, 409],
  handle: async (ctx: Context, { query, identity, req, res }) =>
    sendView(req, res, await sendBrief(ctx, address(query), identity)),
});

const reset = defineOperation({
  rule: letters.routes.resetBrief,
  operationId: 'resetBrief',
  summary: 'Start a letter over',
  description:
    `Any identity. A fresh \`concept\` built from the default ` +
    `passages of the letter's beroep and besluit. ${ADDRESSING}`,
  query: BriefQuery,
  problems: [404],
  load: briefExists,
  responses: { 200: BriefView },
  handle: async (ctx: Context, { query, identity, req, res }) =>
    sendView(req, res, await resetBrief(ctx, address(query), identity)),
});

export const briefsRoutes = [getBrief, putBrief, submit, approve, reject, send, reset];
