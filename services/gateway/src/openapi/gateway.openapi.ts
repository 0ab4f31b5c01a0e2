import {
  API_VERSION_HEADER,
  AUDIENCE,
  OpenAPIRegistry,
  describeOperations,
  generateOpenApi,
} from '@register/service-kit';
import { systemRoutes } from '../admin-system/system.routes';
import { meRoutes } from '../identity/me.routes';

/** The identity headers of ADR 0001 (the header stand-in) and the webhook's shared secret (ADR 0011). */
const SECURITY_SCHEMES = {
  subject: { name: 'X-Subject', description: 'A practitioner: the citizen identifier (1–64 of `[A-Za-z0-9._:-]`).' },
  role: { name: 'X-Role', description: "The practitioner's role: `drafter` (default), `approver` or `admin`." },
  medewerker: { name: 'X-Medewerker', description: 'A case handler: its identifier.' },
  rollen: { name: 'X-Rollen', description: "The case handler's roles, comma-separated (`beoordelaar`, …)." },
  notificatiesAuth: { name: 'Authorization', description: 'The shared secret of the notification webhook.' },
} as const;

/** The gateway's own part of the public description: its operations, the probes and the security schemes. */
export function gatewayOpenApi(): object {
  const r = new OpenAPIRegistry();
  for (const [id, scheme] of Object.entries(SECURITY_SCHEMES))
    r.registerComponent('securitySchemes', id, { type: 'apiKey', in: 'header', ...scheme });
  describeOperations(r, [...meRoutes, ...systemRoutes]);
  const system = [AUDIENCE.system];
  r.registerPath({
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Liveness',
    tags: system,
    responses: { 200: { description: 'Live', headers: API_VERSION_HEADER } },
  });
  r.registerPath({
    method: 'get',
    path: '/health/ready',
    operationId: 'getReadiness',
    summary: 'Readiness of this gateway: its database, its NATS connection, not draining',
    tags: system,
    responses: {
      200: { description: 'This gateway can serve', headers: API_VERSION_HEADER },
      503: { description: 'Its database or NATS is unreachable, or it is draining' },
    },
  });
  return generateOpenApi(r, 'Gateway');
}
