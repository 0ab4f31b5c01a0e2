import { routeTable, type ProblemType } from '../common';

// The letters routes arrive with the letters service (issue: letters); the prefixes are already its own.
export const routes = routeTable('letters', {});

export const problems = {
  'step-up-required': { status: 403, title: 'Step-up confirmation required', description: 'Revealing the register number needs the header `X-Step-Up: true`, sent after an explicit confirmation of the user.' },
} as const satisfies Record<string, ProblemType>;
