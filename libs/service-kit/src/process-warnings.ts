import type { Logger } from './logger';

/**
 * Node's process warnings (a deprecated API a dependency calls, as http-proxy's `util._extend` in the gateway;
 * too many listeners; ...) as `warn` records of the process's JSON log, instead of the bare stderr line Node
 * prints by default: every line a service writes then parses as JSON and names its service, and log pipelines
 * see the warning with its code. Name, code and message only (what Node prints without --trace-warnings).
 *
 * For the process's owner alone (a service in its own process, the single-process launcher), once: it takes
 * over from the printers installed so far (Node's own). Deprecations muted with `process.noDeprecation` stay
 * muted, as Node decides that before it emits. Returns a function that gives the printers back.
 */
export function logProcessWarnings(logger: Logger, proc: NodeJS.Process = process): () => void {
  const printers = proc.listeners('warning') as Array<(warning: Error) => void>;
  for (const printer of printers) proc.off('warning', printer);
  const onWarning = (warning: Error & { code?: string }) => {
    logger.warn(
      { warning: { name: warning.name, ...(warning.code ? { code: warning.code } : {}), message: warning.message } },
      'process warning',
    );
  };
  proc.on('warning', onWarning);
  return () => {
    proc.off('warning', onWarning);
    for (const printer of printers) proc.on('warning', printer);
  };
}
