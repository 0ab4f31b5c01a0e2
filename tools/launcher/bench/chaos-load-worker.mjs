// The chaos bench's load in a thread of its own: the bench's main thread also runs the S3 endpoint and the ZGW
// simulator, and their work would otherwise delay reading the answers, adding to every latency the bench reports.
import { parentPort, workerData } from 'node:worker_threads';
import { createLoad } from './chaos-load.mjs';

const { base, run, rate, started } = workerData;
const load = createLoad(base, { run, started });
const stop = load.start(rate);
parentPort.once('message', async () => {
  await stop();
  parentPort.postMessage({ requests: load.requests, writes: load.writes });
});
