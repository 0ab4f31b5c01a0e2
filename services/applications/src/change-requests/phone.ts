import { DomainError } from '@register/problem';

/**
 * ADR 0007: strip spaces, '-', '.', '(' and ')'; a leading +31 or 0031 becomes 0; the result must be
 * 0 followed by nine digits. Every form (national, international, bracketed) goes through this one rule.
 */
export function normalisePhone(input: string | null): string {
  if (input === null) throw invalid();
  let value = input.replace(/[\s\-.()]/g, '');
  if (value.startsWith('+31')) value = `0${value.slice(3)}`;
  else if (value.startsWith('0031')) value = `0${value.slice(4)}`;
  if (!/^0\d{9}$/.test(value)) throw invalid();
  return value;
}

// The detail never echoes the number: it is personal data and problem bodies get logged.
function invalid(): DomainError {
  return new DomainError('invalid-phone-number', 'The phone number is not a valid Dutch number.', [
    {
      field: 'telefoon',
      code: 'invalid-phone-number',
      detail: 'After removing formatting, the number must be 0 followed by nine digits.',
    },
  ]);
}
