import { addMonths, isValidDate, todayInAmsterdam } from '../src/clock';

describe('dates', () => {
  it('when it is late evening UTC, then today in Amsterdam is already the next day (summer and winter)', () => {
    expect(todayInAmsterdam({ now: () => new Date('2026-06-30T22:30:00Z') })).toBe('2026-07-01');
    expect(todayInAmsterdam({ now: () => new Date('2026-12-31T22:59:59Z') })).toBe('2026-12-31');
    expect(todayInAmsterdam({ now: () => new Date('2026-12-31T23:00:00Z') })).toBe('2027-01-01');
  });

  it(
    'when asked hour after hour, then every answer is the date the ' +
      'formatter gives for that moment (the kept one never outlives its hour)',
    () => {
      const formatter = new Intl.DateTimeFormat('en-CA', {
        timeZone: 'Europe/Amsterdam',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
      // Two years in 17-minute steps, back and forth across both daylight-saving changes and every midnight.
      const wrong: string[] = [];
      const start = Date.UTC(2025, 0, 1);
      for (let ms = start; ms < start + 2 * 365 * 86_400_000; ms += 17 * 60_000) {
        for (const at of [new Date(ms), new Date(ms - 61 * 60_000)]) {
          if (todayInAmsterdam({ now: () => at }) !== formatter.format(at)) wrong.push(at.toISOString());
        }
      }
      expect(wrong).toEqual([]);
      // Before whole-hour offsets (Amsterdam ran 20 minutes ahead of UTC until 1940): formatted every time.
      expect(todayInAmsterdam({ now: () => new Date('1937-06-30T23:50:00Z') })).toBe('1937-07-01');
    },
  );

  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2024-13-01', false],
    ['2024-00-10', false],
    ['2024-1-01', false],
    ['20240101', false],
    ['2024-04-31', false],
  ])('when %s is checked, then valid is %s', (value, valid) => expect(isValidDate(value)).toBe(valid));

  it('when months are added to a month end, then the day is clamped', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2026-11-22', 12)).toBe('2027-11-22');
  });
});
