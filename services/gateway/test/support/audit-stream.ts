import { DeliverPolicy, jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import type { AuditEventData } from '@register/contracts';
import { eventually, natsUrl, testEvents } from '@register/testkit';

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
 * The audit events of one request (by its correlation id) as they are on the stream. It first waits until the
 * gateway's outbox is drained, so what is on the stream is all the gateway wrote.
 */
export async function auditEventsOf(
  gatewayDatabaseUrl: string,
  correlationId: string,
  since: Date,
): Promise<AuditEventData[]> {
  await eventually(async () => ((await outboxEmpty(gatewayDatabaseUrl)) ? true : undefined), 20_000, 100);
  const nc = await connect({ servers: natsUrl(), name: 'gateway-test-audit-reader' });
  try {
    const js = jetstream(nc);
    // The run's own stream and subject prefix (the jest global setup makes them; startService passes them on).
    const { stream, prefix } = testEvents();
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
