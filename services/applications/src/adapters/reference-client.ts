import { DomainError } from '@register/problem';
import type { InternalClient } from '@register/service-kit';

export interface Beleidsvraag {
  id: string;
  vraag: string;
  type: string;
}

/** The reference service's stamdata, as this service reads it (wording is business-editable). */
export interface ReferencePort {
  beleidsvragen(): Promise<Beleidsvraag[]>;
  beroepCodes(): Promise<string[]>;
}

export class ReferenceClient implements ReferencePort {
  constructor(private readonly client: InternalClient) {}

  private async rows<T>(table: string): Promise<T[]> {
    const res = await this.client.request<{ rows: T[] | null }>('GET', `/internal/stamdata/${table}`);
    if (res.status !== 200) throw new DomainError('unavailable', `The reference service answered ${res.status} for stamdata ${table}.`);
    return res.body.rows ?? [];
  }

  async beleidsvragen(): Promise<Beleidsvraag[]> {
    return this.rows<Beleidsvraag>('beleidsvragen');
  }

  async beroepCodes(): Promise<string[]> {
    return (await this.rows<{ code: string }>('beroepen')).map((r) => r.code);
  }
}
