import { applications } from '@register/contracts';
import { DomainError } from '@register/problem';
import type { InternalClient } from '@register/service-kit';
import type { CaseContextSource, LetterContext } from '../case-briefs/case-context-source';

const path = (template: string, name: string, value: string) => template.replace(`:${name}`, encodeURIComponent(value));

/** The applications service's internal letter-context API (contract `applications.internal`). */
export class ApplicationsClient implements CaseContextSource {
  constructor(private readonly http: InternalClient) {}

  ofCase(applicationId: string): Promise<LetterContext | null> {
    return this.fetch(path(applications.internal.paths.caseLetterContext, 'applicationId', applicationId));
  }

  ofPractitioner(subject: string): Promise<LetterContext | null> {
    return this.fetch(path(applications.internal.paths.practitionerLetterContext, 'subject', subject));
  }

  private async fetch(url: string): Promise<LetterContext | null> {
    const res = await this.http.request<unknown>('GET', url);
    if (res.status === 404) return null;
    const parsed = applications.internal.letterContext.safeParse(res.body);
    if (res.status !== 200 || !parsed.success)
      throw new DomainError('unavailable', `The applications service answered the letter context with ${res.status}.`);
    return parsed.data;
  }
}
