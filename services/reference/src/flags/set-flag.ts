import { auditRole, type Identity } from '@register/authz';
import { auditEvent, reference } from '@register/contracts';
import { NotFoundError } from '@register/problem';
import { enqueue } from '@register/service-kit';
import type { Context } from '../context';
import { findFlag, updateFlag, type FlagRow } from './flags.repository';

export async function requireFlag(ctx: Context, key: string): Promise<FlagRow> {
  const flag = await findFlag(ctx.db, key);
  if (!flag) throw new NotFoundError('flag');
  return flag;
}

/** Sets a flag; the audit row and the flag-changed event commit with the change or not at all. */
export async function setFlag(
  ctx: Context,
  identity: Identity | null,
  key: string,
  enabled: boolean,
  correlationId: string | null,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await updateFlag(trx, key, enabled))) throw new NotFoundError('flag');
    await enqueue(
      trx,
      auditEvent('reference'),
      { action: 'flag:set', resource: `flag/${key}`, decision: 'allow', role: auditRole(identity) },
      correlationId,
    );
    await enqueue(trx, reference.events.flagChanged, { key, enabled }, correlationId);
  });
}
