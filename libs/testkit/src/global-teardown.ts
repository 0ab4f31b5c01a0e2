export default async function globalTeardown(): Promise<void> {
  const started = (globalThis as { __registerInfra?: Array<() => Promise<unknown>> }).__registerInfra ?? [];
  for (const stop of started.reverse()) await stop().catch(() => undefined);
}
