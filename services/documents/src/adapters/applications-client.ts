import { applications } from '@register/contracts';
import { DomainError } from '@register/problem';
import type { InternalClient } from '@register/service-kit';
import type { ApplicationDirectory } from '../uploads/application-directory';

const { paths, uploadTarget } = applications.internal;

/** The applications service's internal API; its answer is checked against the contract. */
export function applicationsDirectory(client: InternalClient): ApplicationDirectory {
  return {
    async uploadable(owner, applicationId) {
      const path =
        `${paths.uploadTarget.replace(':applicationId', encodeURIComponent(applicationId))}` +
        `?owner=${encodeURIComponent(owner)}`;
      const { status, body } = await client.request<unknown>('GET', path);
      const parsed = uploadTarget.safeParse(body);
      if (status !== 200 || !parsed.success)
        throw new DomainError('unavailable', 'The applications service gave no usable answer.');
      return parsed.data.uploadable;
    },
  };
}
