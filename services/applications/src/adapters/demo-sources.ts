import type { Kysely } from 'kysely';
import type { AppDatabase } from '../database';
import type { Aantekening, Address, Registration } from '../registration/registration.schemas';
import {
  NOT_REGISTERED,
  type Diploma,
  type EducationSource,
  type PopulationSource,
  type RegisterSource,
} from '../registration/sources';

/** Calendar arithmetic on YYYY-MM-DD strings (UTC midnight, so no DST shifts). */
function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The shipped register source: demo rows in this service's database (ADR 0007). */
export class DemoRegisterSource implements RegisterSource {
  constructor(private readonly db: Kysely<AppDatabase>) {}

  async registrationOf(subject: string, today: string): Promise<Registration> {
    const row = await this.db
      .selectFrom('demo_registrations')
      .selectAll()
      .where('subject', '=', subject)
      .executeTakeFirst();
    if (!row) return NOT_REGISTERED;
    // Dates are stored as day offsets from today, so the demo subjects keep their meaning on every day.
    const relative = (days: number | null) => (days === null ? null : addDays(today, days));
    return {
      registerNummer: row.register_nummer,
      naam: row.naam,
      beroep: row.beroep,
      registratiedatum: row.registratiedatum,
      geboortedatum: row.geboortedatum,
      status: {
        tag: row.status_tag,
        herregistratieDatum: relative(row.herregistratie_over_dagen),
        geschorstTot: relative(row.geschorst_over_dagen),
        reden: row.reden,
        doorgehaaldOp: row.doorgehaald_op,
      },
    };
  }

  async notesOf(subject: string): Promise<Aantekening[]> {
    const rows = await this.db
      .selectFrom('demo_notes')
      .select(['type', 'omschrijving', 'datum'])
      .where('subject', '=', subject)
      .orderBy('datum')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ type: r.type, omschrijving: r.omschrijving, datum: r.datum }));
  }
}

export class DemoPopulationSource implements PopulationSource {
  constructor(private readonly db: Kysely<AppDatabase>) {}

  async addressOf(subject: string): Promise<Address | null> {
    const row = await this.db
      .selectFrom('demo_addresses')
      .select(['straat', 'postcode', 'woonplaats'])
      .where('subject', '=', subject)
      .executeTakeFirst();
    return row ?? null;
  }

  async personOf(subject: string): Promise<{ naam: string; geboortedatum: string } | null> {
    const row = await this.db
      .selectFrom('demo_registrations')
      .select(['naam', 'geboortedatum'])
      .where('subject', '=', subject)
      .executeTakeFirst();
    return row ?? null;
  }
}

export class DemoEducationSource implements EducationSource {
  constructor(private readonly db: Kysely<AppDatabase>) {}

  async diplomasOf(subject: string): Promise<Diploma[]> {
    return this.db
      .selectFrom('demo_diplomas')
      .select(['id', 'naam', 'instelling', 'jaar', 'beroep', 'buitenlands'])
      .where('subject', '=', subject)
      .orderBy('jaar')
      .orderBy('id')
      .execute();
  }
}
