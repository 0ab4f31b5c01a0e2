import { z } from 'zod';
import { applications } from '@register/contracts';
import { decodeCursor, defineOperation, encodeCursor, nextLink, pageQuery } from '@register/service-kit';

const notesPosition = z.object({ offset: z.number().int().min(0).max(1_000_000) });
import { ownerOf } from '../cases/owner';
import type { Context } from '../context';
import { dashboardView, educationLookup, notes, populationAddress } from './person-views';
import { Aantekening, DashboardView, EducationLookup, IntakePolicy, PopulationAddress } from './registration.schemas';

const getDashboardView = defineOperation({
  rule: applications.routes.dashboardView,
  operationId: 'getDashboardView',
  summary: "The caller's registration, person and herregistratie decision",
  description:
    'A subject without registration is `NietGeregistreerd` with the other fields null. ' +
    '`eligibleForHerregistratie` is true only for `Geregistreerd` with `herregistratieDatum` at most ' +
    '12 months ahead while the flag `herregistratie-aanvragen` is on; otherwise `herregistratieReason` ' +
    'names the first reason that applies. Creating a herregistratie follows the same decision.',
  responses: { 200: DashboardView },
  handle: async (ctx: Context, { identity }) => ({ body: await dashboardView(ctx, ownerOf(identity)) }),
});

const listNotes = defineOperation({
  rule: applications.routes.notes,
  operationId: 'listNotes',
  summary: "The register's notes (aantekeningen) on the caller",
  description:
    'Newest register order as the register keeps it; `limit` (1–1000) ' +
    'and `cursor` page them (ADR 0014), `Link: rel="next"` while notes remain.',
  query: pageQuery,
  responses: { 200: z.array(Aantekening) },
  handle: async (ctx: Context, { identity, query, req }) => {
    const all = await notes(ctx, ownerOf(identity));
    // The register's notes have no key of their own: the cursor names the position after the page.
    const start = decodeCursor(query.cursor, notesPosition)?.offset ?? 0;
    const page = all.slice(start, start + (query.limit ?? 1000));
    const next = start + page.length;
    return next < all.length
      ? { body: page, headers: { Link: nextLink(req.originalUrl, encodeCursor({ offset: next })) } }
      : { body: page };
  },
});

const getPopulationAddress = defineOperation({
  rule: applications.routes.populationAddress,
  operationId: 'getPopulationAddress',
  summary: "The caller's address in the population registry",
  description: '`gevonden: false` (with the three address fields null) when the registry has none.',
  responses: { 200: PopulationAddress },
  handle: async (ctx: Context, { identity }) => ({ body: await populationAddress(ctx, ownerOf(identity)) }),
});

const getEducationDiplomas = defineOperation({
  rule: applications.routes.educationDiplomas,
  operationId: 'getEducationDiplomas',
  summary: "The caller's diplomas, with the policy questions each raises",
  description:
    'A foreign diploma raises `buitenlands-diploma-erkend` and `taalvaardigheid`; ' +
    '`handmatig` lists the professions and questions for a manually entered diploma. ' +
    'Question wording comes from stamdata (`beleidsvragen`); ' +
    '503 when the reference service cannot be reached.',
  responses: { 200: EducationLookup },
  problems: [503],
  handle: async (ctx: Context, { identity }) => ({ body: await educationLookup(ctx, ownerOf(identity)) }),
});

const getIntakePolicy = defineOperation({
  rule: applications.routes.intakePolicy,
  operationId: 'getIntakePolicy',
  summary: 'The intake policy',
  description:
    'Below `scholingThreshold` worked hours an intake needs the ' +
    'scholing answer; submit applies the same configured value.',
  responses: { 200: IntakePolicy },
  handle: (ctx: Context) => ({ body: { scholingThreshold: ctx.config.SCHOLING_THRESHOLD } }),
});

export const registrationRoutes = [
  getDashboardView,
  listNotes,
  getPopulationAddress,
  getEducationDiplomas,
  getIntakePolicy,
];
