import type { Built } from '@register/service-kit';
import type { CaseMirror } from './mirror-case.types';
import type { Db } from '../database';
import { countCases, oldestDivergenceSeconds } from './case-mirror.repository';
import { countPastWindow } from './case-mirror-operator.repository';

/** The mirror's backlog and open divergences, read at each scrape of `/metrics` (issue 14). */
export function mirrorGauges(db: Db, mirror: CaseMirror): NonNullable<Built<unknown>['metrics']> {
  return {
    case_mirror_backlog: { help: 'Cases with mirror work owed (state pending)', read: () => countCases(db, 'pending') },
    case_mirror_divergences: {
      help: 'Cases whose mirror diverged and wait for the reconciler',
      read: () => countCases(db, 'diverged'),
    },
    case_mirror_oldest_divergence_seconds: {
      help: 'Age of the oldest open divergence (0: none); the reconciler gives up after ZGW_RECONCILE_WINDOW',
      read: () => oldestDivergenceSeconds(db),
    },
    case_mirror_past_window: {
      help: "Diverged cases past the reconciler's window: only an operator's retry brings them back",
      read: () => countPastWindow(db, mirror.windowMs),
    },
    case_mirror_yielding: {
      help: 'While 1, the service is busy with requests and the mirror works one case per poll interval (ADR 0273)',
      read: () => (mirror.busy() ? 1 : 0),
    },
  };
}
