import type { FlagRow } from './flags.repository';

/** Flags shipped with the service (ADR 0008); a start adds missing ones and never overwrites a setting. */
export const FLAGS_SEED: FlagRow[] = [
  {
    key: 'herregistratie-aanvragen',
    description: 'Practitioners can apply for re-registration (herregistratie).',
    enabled: true,
  },
];
