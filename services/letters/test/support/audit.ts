import { DeliverPolicy, jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import type { AuditEventData } from '@register/contracts';
import { eventually } from '@register/testkit';
import type { NeighboursSystem } from './neighbours-system';

async function outboxEmpty(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM outbox');
    return Number(rows[0]!.n) === 0;
  } finally {
    await client.end();
  }
}

/**
 * The audit events of one request (by its correlation id) as they are on the stream, from every service. It
 * first waits until the gateway's and letters' outboxes are drained, so what is on the stream is all there is.
 */
export async function auditEventsOf(
  system: NeighboursSystem,
  correlationId: string,
  since: Date,
): Promise<AuditEventData[]> {
  await eventually(
    async () =>
      (await outboxEmpty(system.letters.databaseUrl)) && (await outboxEmpty(system.gateway.databaseUrl))
        ? true
        : undefined,
    20_000,
    100,
  );
  const nc = await connect({ servers: system.nats, name: 'letters-test-audit-reader' });
  try {
    const js = jetstream(nc);
    const { stream, prefix } = system.events;
    const consumer = await js.consumers.get(stream, {
      // Each service's authorization audit subject (`register.audit.<service>`) only; processing records are on
      // `register.processing.<service>` (ADR 0181).
      filter_subjects: `${prefix}register.audit.*`,
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: since.toISOString(),
    });
    const found: AuditEventData[] = [];
    for (;;) {
      const batch = await consumer.fetch({ max_messages: 500, expires: 1000 });
      let last = true;
      let seen = 0;
      for await (const msg of batch) {
        seen += 1;
        const envelope = msg.json<{ correlationId: string | null; data: AuditEventData }>();
        if (envelope.correlationId === correlationId) found.push(envelope.data);
        last = msg.info.pending === 0;
        if (last) break;
      }
      if (last || seen === 0) return found;
    }
  } finally {
    await nc.close();
  }
}
