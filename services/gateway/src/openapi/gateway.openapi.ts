import { z } from 'zod';
import { OpenAPIRegistry, generateOpenApi, json, problem } from '@register/service-kit';

export const Me = z.strictObject({ capabilities: z.array(z.string()).nullable() }).meta({ id: 'Me' });

export function gatewayOpenApi(): object {
  const r = new OpenAPIRegistry();
  r.registerPath({ method: 'get', path: '/api/v1/me', tags: ['identity'], responses: { 200: json(Me), 401: problem('No identity') } });
  r.registerPath({ method: 'get', path: '/health', tags: ['health'], responses: { 200: { description: 'Live' } } });
  r.registerPath({ method: 'get', path: '/health/ready', tags: ['health'], responses: { 200: { description: 'Every service ready' }, 503: { description: 'A service or dependency is not ready' } } });
  return generateOpenApi(r, 'Gateway');
}
