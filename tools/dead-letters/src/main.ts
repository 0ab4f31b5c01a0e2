#!/usr/bin/env node
import { connectEvents, createLogger } from '@register/service-kit';
import { listDeadLetters, replayDeadLetter } from './index';

const usage =
  'usage: register-dead-letters list [<durable>] | replay <seq> [<seq> …]   (NATS_URL, default nats://127.0.0.1:4222; EVENTS_STREAM, EVENTS_SUBJECT_PREFIX as the services have them)';

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command !== 'list' && command !== 'replay') {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  const events = await connectEvents(
    process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222',
    'dead-letters-cli',
    createLogger('dead-letters', 'warn'),
    {
      ...(process.env['EVENTS_STREAM'] ? { name: process.env['EVENTS_STREAM'] } : {}),
      ...(process.env['EVENTS_SUBJECT_PREFIX'] ? { prefix: process.env['EVENTS_SUBJECT_PREFIX'] } : {}),
    },
  );
  try {
    if (command === 'list') {
      const letters = await listDeadLetters(events, args[0]);
      for (const l of letters)
        process.stdout.write(
          `${l.seq}\t${l.failedAt}\t${l.durable}\t${l.subject}\tdeliveries=${l.deliveries}\t${l.error}\n`,
        );
      process.stdout.write(`${letters.length} dead letter(s)\n`);
      return 0;
    }
    for (const seq of args.map(Number)) {
      const letter = await replayDeadLetter(events, seq);
      process.stdout.write(`replayed ${seq} to ${letter.subject} (consumer ${letter.durable})\n`);
    }
    return 0;
  } finally {
    await events.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
