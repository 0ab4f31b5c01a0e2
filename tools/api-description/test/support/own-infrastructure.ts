import type { Infrastructure } from '@register/launcher';
import {
  natsUrl,
  removeBucket,
  systemEvents,
  testS3,
  withServiceSettings,
  type ServiceSettings,
} from '@register/testkit';

/**
 * The test infrastructure for one whole system, with a bucket, a stream and durable consumers of its own (ADR
 * 0160); `settings` are the services' settings for them, `remove` deletes what the system left there.
 */
export function ownInfrastructure(prefix: string): {
  infra: Infrastructure;
  settings(extra?: ServiceSettings): ServiceSettings;
  remove(): Promise<void>;
} {
  const s3 = testS3();
  const bucket = `documents-${prefix.replace(/_/g, '-')}`;
  const events = systemEvents(prefix);
  return {
    infra: {
      postgresUrl: process.env['TEST_PG_URL'] as string,
      natsUrl: natsUrl(),
      s3: { endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket },
      embedded: [],
      stop: async () => undefined,
    },
    settings: (extra) => withServiceSettings(events.env, extra),
    async remove() {
      await removeBucket(bucket);
      await events.remove(natsUrl());
    },
  };
}
