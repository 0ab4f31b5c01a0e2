// The chaos bench's S3 endpoint as a process of its own, as it is in a cluster: run in the bench's process, its
// work would share an event loop with the ZGW simulator and slow every upload for reasons a cluster does not have.
// Forked with IPC: argv is the directory and the port; it sends its endpoint once it listens, and stops on SIGTERM.
import { startS3rver } from '@register/embedded';

const [dir, port] = process.argv.slice(2);
const s3 = await startS3rver(dir, Number(port), 'documents');
process.send({ url: s3.url, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: s3.bucket });
process.once('SIGTERM', () => void s3.stop().then(() => process.exit(0)));
