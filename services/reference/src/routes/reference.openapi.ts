import { z } from 'zod';
import { OpenAPIRegistry, generateOpenApi, json, problem } from '@register/service-kit';
import { FeatureFlag, SetFeatureFlagRequest, StamdataQuery, StamdataTable, StamdataTableSummary } from './reference.schemas';

export function referenceOpenApi(): object {
  const r = new OpenAPIRegistry();
  r.registerPath({ method: 'get', path: '/api/v1/stamdata', tags: ['stamdata'], responses: { 200: json(z.array(StamdataTableSummary)), 403: problem('Forbidden') } });
  r.registerPath({
    method: 'get',
    path: '/api/v1/stamdata/{table}',
    tags: ['stamdata'],
    request: { params: z.object({ table: z.string() }), query: StamdataQuery },
    responses: { 200: json(StamdataTable), 400: problem('Malformed peildatum'), 403: problem('Forbidden'), 404: { description: 'Unknown table' } },
  });
  r.registerPath({ method: 'get', path: '/api/v1/flags', tags: ['flags'], responses: { 200: json(z.array(FeatureFlag)) } });
  r.registerPath({
    method: 'put',
    path: '/api/v1/admin/flags/{key}',
    tags: ['flags'],
    request: { params: z.object({ key: z.string() }), body: { content: { 'application/json': { schema: SetFeatureFlagRequest } } } },
    responses: { 204: { description: 'Set' }, 400: problem('Invalid body'), 403: problem('Forbidden'), 404: { description: 'Unknown flag' } },
  });
  return generateOpenApi(r, 'Reference service');
}
