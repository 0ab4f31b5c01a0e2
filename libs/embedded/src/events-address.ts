import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Where a running `npm start` sends its events: what the operator tools (dead-letters) connect to. */
export interface EventsAddress {
  /** NATS server URLs, or `in-process` (single-process mode: no NATS to ask). */
  natsUrl: string;
  stream: string;
  subjectPrefix: string;
}

/** `<data dir>/events.json`: written once npm start's services are up, removed when it stops. */
export const eventsAddressFile = (dataDir: string): string => path.join(dataDir, 'events.json');

/** DATA_DIR (relative to `root`, as npm start runs there), else `<root>/.data`. */
export const dataDirOf = (env: NodeJS.ProcessEnv, root: string): string =>
  env['DATA_DIR'] ? path.resolve(root, env['DATA_DIR']) : path.join(root, '.data');

export function writeEventsAddress(dataDir: string, address: EventsAddress): void {
  writeFileSync(eventsAddressFile(dataDir), `${JSON.stringify(address, null, 2)}\n`);
}

export function removeEventsAddress(dataDir: string): void {
  rmSync(eventsAddressFile(dataDir), { force: true });
}

/** The address a running npm start wrote, or null when there is none (not started, or stopped). */
export function readEventsAddress(dataDir: string): EventsAddress | null {
  let text: string;
  try {
    text = readFileSync(eventsAddressFile(dataDir), 'utf8');
  } catch {
    return null;
  }
  const value = JSON.parse(text) as Partial<EventsAddress>;
  if (typeof value.natsUrl !== 'string') throw new Error(`${eventsAddressFile(dataDir)} names no natsUrl`);
  return { natsUrl: value.natsUrl, stream: value.stream ?? 'REGISTER', subjectPrefix: value.subjectPrefix ?? '' };
}
