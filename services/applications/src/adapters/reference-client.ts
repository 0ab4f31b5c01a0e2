import { DomainError } from '@register/problem';
import type { InternalClient } from '@register/service-kit';
import type { Beleidsvraag, StamdataSource } from '../registration/sources';

/** The reference service's stamdata over its internal API (wording is business-editable, so never cached here). */
export class ReferenceClient implements StamdataSource {
  constructor(private readonly client: InternalClient) {}

  private async rows<T>(table: string): Promise<T[]> {
    const res = await this.client.request<{ rows: T[] | null }>('GET', `/internal/stamdata/${table}`);
    if (res.status !== 200)
      throw new DomainError('unavailable', `The reference service answered ${res.status} for stamdata ${table}.`);
    return res.body.rows ?? [];
  }

  async beleidsvragen(): Promise<Beleidsvraag[]> {
    return this.rows<Beleidsvraag>('beleidsvragen');
  }

  async beroepCodes(): Promise<string[]> {
    return (await this.rows<{ code: string }>('beroepen')).map((r) => r.code);
  }
}
