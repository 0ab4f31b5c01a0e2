import pino, { type DestinationStream, type Logger } from 'pino';
import { currentCorrelationId } from './context';
import { currentTraceId } from './telemetry/trace-context';

export type { Logger };

/** Paths pino never writes: identity, authorization and anything that could carry personal data. */
export const REDACT_PATHS = [
  'req.headers["x-subject"]',
  'req.headers["x-medewerker"]',
  'req.headers["x-rollen"]',
  'req.headers["x-internal-identity"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/** `destination` defaults to stdout; tests pass a stream to read the lines. */
export function createLogger(service: string, level = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      name: service,
      level,
      redact: { paths: REDACT_PATHS, remove: true },
      mixin() {
        const correlationId = currentCorrelationId();
        const traceId = currentTraceId();
        return correlationId ? (traceId ? { correlationId, traceId } : { correlationId }) : traceId ? { traceId } : {};
      },
    },
    destination,
  );
}
