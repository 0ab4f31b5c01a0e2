/** ADR 0003: every character but the last 3 becomes '*' ('900000001' → '******001'). */
export function mask(value: string | null): string | null {
  if (value === null) return null;
  return value.length <= 3 ? value : '*'.repeat(value.length - 3) + value.slice(-3);
}
