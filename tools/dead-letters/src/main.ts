#!/usr/bin/env node
import path from 'node:path';
import { CliError, connectToSystem, findEvents } from './connection';
import { listDeadLetters, replayDeadLetter } from './index';

const usage = [
  'usage: npm run dead-letters -- list [<durable>] | replay <seq> [<seq> …]',
  '  Asks the NATS of the system npm start runs (.data/events.json), or NATS_URL with EVENTS_STREAM and',
  '  EVENTS_SUBJECT_PREFIX as the services have them.',
].join('\n');

const ROOT = path.resolve(__dirname, '..', '..', '..');

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if ((command !== 'list' && command !== 'replay') || (command === 'replay' && args.length === 0)) {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  const sequences = command === 'replay' ? args.map(Number) : [];
  if (sequences.some((seq) => !Number.isSafeInteger(seq) || seq < 1))
    throw new CliError(`replay takes stream sequences (the first column of list), not ${args.join(' ')}`);
  const events = await connectToSystem(findEvents(process.env, ROOT));
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
    for (const seq of sequences) {
      const letter = await replayDeadLetter(events, seq);
      process.stdout.write(`replayed ${seq} to ${letter.subject} (consumer ${letter.durable})\n`);
    }
    return 0;
  } finally {
    await events.nc.close();
  }
}

// Exits explicitly: a connect that timed out against a server that never answered can leave its socket open.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    // The message says what went wrong (a CliError also what to set or start); a stack would not help an operator.
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
