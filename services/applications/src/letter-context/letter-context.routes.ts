import { z } from 'zod';
import { applications } from '@register/contracts';
import { defineOperation } from '@register/service-kit';
import type { Context } from '../context';
import { caseLetterContext, practitionerLetterContext } from './letter-context';

const { paths, letterContext } = applications.internal;

/** The letters service reads a decided case's context once and keeps its own copy (events carry no personal data). */
const getCaseLetterContext = defineOperation({
  internal: { method: 'GET', path: paths.caseLetterContext },
  operationId: 'getCaseLetterContext',
  summary: 'The letter context of a decided application (internal)',
  params: z.object({ applicationId: z.string() }),
  responses: { 200: letterContext },
  handle: async (ctx: Context, { params }) => ({ body: await caseLetterContext(ctx, params.applicationId) }),
});

/** Subjects as the identity header allows them (ADR 0001). */
const subject = z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/, 'a subject of 1 to 64 characters of [A-Za-z0-9._:-]');

const getPractitionerLetterContext = defineOperation({
  internal: { method: 'GET', path: paths.practitionerLetterContext },
  operationId: 'getPractitionerLetterContext',
  summary: 'The letter context of a practitioner without a case (internal)',
  params: z.object({ subject }),
  responses: { 200: letterContext },
  handle: async (ctx: Context, { params }) => ({ body: await practitionerLetterContext(ctx, params.subject) }),
});

export const letterContextRoutes = [getCaseLetterContext, getPractitionerLetterContext];
