import { PROBLEM_TYPES, type ProblemSlug, type ProblemType } from '@register/contracts';

// The catalogue is assembled from the contexts' contracts; this library only turns a slug into HTTP.
export { PROBLEM_TYPES, type ProblemSlug, type ProblemType };

export function isProblemSlug(value: string): value is ProblemSlug {
  return Object.prototype.hasOwnProperty.call(PROBLEM_TYPES, value);
}
