import v8 from 'node:v8';

/** Young-generation ArrayBuffer memory (MiB) at which V8 runs a scavenge for it; see {@link collectBodyChunksEarly}. */
export const YOUNG_BACKING_STORE_TRIGGER_MIB = 4;

/**
 * The V8 flag behind that trigger. V8 13.6 (Node 24), Heap::AllocateExternalBackingStore: a scavenge when the
 * young generation's backing stores reach 2 × DefaultMaxSemiSpaceSize(), which is this flag × 2 MiB (Node is
 * built without pointer compression), read on every call. The default (32) makes that 128 MiB.
 */
export const BODY_CHUNK_GC_FLAG =
  `--scavenger-max-new-space-capacity-mb=` + `${Math.max(1, Math.round(YOUNG_BACKING_STORE_TRIGGER_MIB / 4))}`;

let applied = false;

/**
 * Lets V8 reclaim streamed body chunks while a transfer runs, instead of after ~60 MiB of them piled up.
 *
 * Node's HTTP parser hands every body chunk to JavaScript as a new off-heap Buffer (a copy of the socket
 * data). The gateway writes it to the service and drops it, so each chunk dies young, but its memory only
 * returns on a GC, and while bytes stream the JS heap hardly allocates, so no scavenge comes by itself. V8
 * forces one for young backing stores only at 128 MiB (BODY_CHUNK_GC_FLAG); its external-memory soft limit
 * (64 MiB) comes first and starts a full GC. In the upload bench (10 × 20 MiB through the gateway)
 * process.memoryUsage().arrayBuffers climbed to ~58 MiB before the first GC, which left ~9 MiB (the chunks
 * are not held), and glibc keeps the pages: RSS grew 54–73 MiB whatever the body size.
 *
 * Set at run time, the flag moves only that trigger, to YOUNG_BACKING_STORE_TRIGGER_MIB: the young generation
 * was sized at start-up and keeps its size (on the command line the same flag would also cap it). Chunks in
 * flight stay well below the trigger thanks to backpressure: with 160 concurrent uploads there was still one
 * scavenge per ~4 MiB streamed (1–2 ms each on the 2-core bench machine), not one per chunk. Setting it
 * from the code, not a start-up option, gives it to every way the gateway runs (launcher, Dockerfile,
 * `npm start`, the single-process mode). test/memory.test.ts fails when a Node upgrade makes it ineffective.
 */
export function collectBodyChunksEarly(): void {
  if (applied) return;
  applied = true;
  v8.setFlagsFromString(BODY_CHUNK_GC_FLAG);
}
