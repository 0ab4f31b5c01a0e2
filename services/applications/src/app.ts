import type { Express } from 'express';
import type { Kysely } from 'kysely';
import { createServiceApp, type FlagReader, type Logger, type ReadinessCheck } from '@register/service-kit';
import type { DocumentsPort } from './adapters/documents-client';
import type { ReferencePort } from './adapters/reference-client';
import type { AppDatabase } from './data-access/database';
import { DemoEducationSource, DemoPopulationSource, DemoRegisterSource } from './adapters/demo-sources';
import type { ApplicationsDeps } from './domain/applications';
import { LocalCaseSource, type CaseSource } from './domain/case-source';
import type { Clock } from './domain/clock';
import type { DocumentLinker } from './domain/document-linker';
import type { PersonDeps } from './domain/person-views';
import type { EducationSource, PopulationSource, RegisterSource } from './domain/registration';
import { applicationsRouter } from './routes/applications.routes';
import { casesRouter } from './routes/cases.routes';
import { personRouter } from './routes/person.routes';
import { buildOpenApi } from './routes/openapi';

export interface AppConfig {
  scholingThreshold: number;
  internalSecret: string;
}

export interface AppInput {
  config: AppConfig;
  db: Kysely<AppDatabase>;
  logger: Logger;
  clock: Clock;
  documents: DocumentsPort;
  reference: ReferencePort;
  flags: FlagReader;
  linker: DocumentLinker;
  readiness: Record<string, ReadinessCheck>;
  /** Replaceable sources of the external facts; the demo and local ones by default. */
  sources?: Partial<{ register: RegisterSource; population: PopulationSource; education: EducationSource; cases: CaseSource }>;
}

/** What the routers get: the input plus the use-case dependency bundles built from it. */
export interface AppDeps extends AppInput {
  person: PersonDeps;
  applications: ApplicationsDeps;
}

/** Builds the Express app from injected dependencies; it never listens and never reads the environment. */
export function createApp(input: AppInput): Express {
  const person: PersonDeps = {
    register: input.sources?.register ?? new DemoRegisterSource(input.db),
    population: input.sources?.population ?? new DemoPopulationSource(input.db),
    education: input.sources?.education ?? new DemoEducationSource(input.db),
    reference: input.reference,
    flags: input.flags,
    clock: input.clock,
  };
  const applications: ApplicationsDeps = {
    db: input.db,
    documents: input.documents,
    linker: input.linker,
    cases: input.sources?.cases ?? new LocalCaseSource(input.db),
    person,
    clock: input.clock,
    logger: input.logger,
    scholingThreshold: input.config.scholingThreshold,
  };
  const deps: AppDeps = { ...input, person, applications };
  const { app, finish } = createServiceApp({
    service: 'applications',
    logger: input.logger,
    internalSecret: input.config.internalSecret,
    readiness: input.readiness,
    openApi: buildOpenApi,
    // Room for a 256 KiB draft plus its envelope, so an oversized draft gets the contract's 400.
    jsonLimit: '1mb',
  });
  app.use(personRouter(deps));
  app.use(applicationsRouter(deps));
  app.use(casesRouter(deps));
  finish();
  return app;
}
