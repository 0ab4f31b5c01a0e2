import { z } from 'zod';
import { OpenAPIRegistry, generateOpenApi, json, problem } from '@register/service-kit';
import { DraftSyncRequest } from './applications.routes';
import * as S from './schemas';

type Method = 'get' | 'post' | 'put' | 'delete';
interface Entry {
  method: Method;
  path: string;
  ok: { status: number; schema?: z.ZodType };
  body?: z.ZodType;
  problems?: number[];
}

const id = z.object({ id: z.string() });
const page = z.object({ limit: z.number().int().min(1).max(1000).optional(), cursor: z.string().optional() });

const ENTRIES: Entry[] = [
  { method: 'get', path: '/api/v1/dashboard-view', ok: { status: 200, schema: S.DashboardView } },
  { method: 'get', path: '/api/v1/notes', ok: { status: 200, schema: z.array(S.Aantekening) } },
  { method: 'get', path: '/api/v1/population/address', ok: { status: 200, schema: S.PopulationAddress } },
  { method: 'get', path: '/api/v1/education/diplomas', ok: { status: 200, schema: S.EducationLookup } },
  { method: 'get', path: '/api/v1/intake/policy', ok: { status: 200, schema: S.IntakePolicy } },
  { method: 'post', path: '/api/v1/change-requests', body: S.ChangeRequestRequest, ok: { status: 200, schema: S.ReferentieResponse }, problems: [422] },
  { method: 'get', path: '/api/v1/applications', ok: { status: 200, schema: z.array(S.ApplicationSummary) } },
  { method: 'post', path: '/api/v1/applications', body: S.CreateApplicationRequest, ok: { status: 201, schema: S.ApplicationDetail }, problems: [400, 409] },
  { method: 'get', path: '/api/v1/applications/{id}', ok: { status: 200, schema: S.ApplicationDetail } },
  { method: 'put', path: '/api/v1/applications/{id}', body: DraftSyncRequest, ok: { status: 204 }, problems: [400, 409] },
  { method: 'delete', path: '/api/v1/applications/{id}', ok: { status: 204 }, problems: [409] },
  { method: 'post', path: '/api/v1/applications/{id}/submit', body: S.SubmitApplicationRequest, ok: { status: 200, schema: S.SubmitApplicationResponse }, problems: [400, 409, 503] },
  { method: 'get', path: '/api/v1/werkvoorraad', ok: { status: 200, schema: z.array(S.ApplicationSummary) }, problems: [403] },
  { method: 'get', path: '/api/v1/beoordeling/{id}', ok: { status: 200, schema: S.BeoordelingView }, problems: [403] },
  { method: 'post', path: '/api/v1/beoordeling/{id}/besluit', body: S.RecordBesluitRequest, ok: { status: 200, schema: S.RecordBesluitResponse }, problems: [400, 403, 409] },
  { method: 'get', path: '/api/v1/admin/cases', ok: { status: 200, schema: z.array(S.ApplicationSummary) }, problems: [403] },
  { method: 'delete', path: '/api/v1/admin/cases/{id}', ok: { status: 204 }, problems: [403] },
];

let cached: object | null = null;

/** Generated from the same zod schemas the service uses, so description and behaviour cannot drift. */
export function buildOpenApi(): object {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  for (const e of ENTRIES) {
    const responses: Record<string, ReturnType<typeof json> | ReturnType<typeof problem> | { description: string }> = {
      [e.ok.status]: e.ok.schema ? json(e.ok.schema) : { description: 'No content' },
      401: problem('No valid identity'),
    };
    for (const p of e.problems ?? []) responses[p] = problem(`Problem ${p}`);
    if (e.path.includes('{id}')) responses[404] = { description: 'Unknown resource (no body)' };
    registry.registerPath({
      method: e.method,
      path: e.path,
      request: {
        ...(e.path.includes('{id}') ? { params: id } : {}),
        ...(e.path === '/api/v1/applications' && e.method === 'get' ? { query: page } : {}),
        ...(e.body ? { body: { content: { 'application/json': { schema: e.body } } } } : {}),
      },
      responses,
    });
  }
  cached = generateOpenApi(registry, 'applications');
  return cached;
}
