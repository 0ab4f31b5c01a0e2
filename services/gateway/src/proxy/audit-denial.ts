import type { Kysely } from 'kysely';
import { auditRole, type Identity, type RouteRule } from '@register/authz';
import { auditEvent } from '@register/contracts';
import { enqueue } from '@register/service-kit';
import type { GatewayDb } from '../database';

/**
 * The audit row of a 403 on a route that asks for one (spec, Authentication 6: reveal attempts,
 * organisation-admin denials). A case handler without roles has no role to name: `none`.
 */
export async function auditDenial(
  db: Kysely<GatewayDb>,
  rule: RouteRule,
  identity: Identity | null,
  correlationId: string,
): Promise<void> {
  if (!rule.auditDenialAs) return;
  const data = {
    action: rule.auditDenialAs,
    resource: rule.path,
    decision: 'deny',
    role: auditRole(identity) || 'none',
  } as const;
  await enqueue(db, auditEvent('gateway'), data, correlationId);
}
