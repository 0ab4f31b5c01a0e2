/** The eleven-test (elfproef) that Open Zaak applies to an RSIN, as to a BSN: weights 9…2 and −1 for the last digit. */
export function passesElevenTest(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const digits = [...value].map(Number);
  const sum =
    digits.slice(0, 8).reduce((total, digit, index) => total + digit * (9 - index), 0) - (digits[8] as number);
  return sum % 11 === 0;
}

/** The simulator's own organisation: a made-up RSIN that passes the eleven-test. */
export const SIMULATOR_RSIN = '501234561';
