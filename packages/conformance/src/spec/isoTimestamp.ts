/**
 * An ISO 8601 / RFC 3339 date-time read as the document means it, not as a library allows:
 * `T` between date and time (ajv-formats also takes a space), real calendar dates (no 30
 * February), hours to 23, minutes to 59, seconds to 60 (a leap second), any number of fraction
 * digits, and an offset of `Z`, `±hh:mm` or `±hh` (ISO 8601 allows the hour alone).
 */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2})(?::(\d{2}))?)$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function isIsoDateTime(value: string): boolean {
  const match = ISO_DATE_TIME.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12) return false;
  const days = month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] as number);
  if (day < 1 || day > days) return false;
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (match[7] !== undefined && (Number(match[8]) > 23 || Number(match[9] ?? 0) > 59)) return false;
  return true;
}

/** The document's `datetime`: ISO 8601 in UTC, its offset written `Z`, `+00:00` or `+00` (A-TIMESTAMP-UTC-NOTATION). */
export function isUtcDateTime(value: unknown): boolean {
  return typeof value === 'string' && isIsoDateTime(value) && /(?:[Zz]|\+00(?::00)?)$/.test(value);
}

/** The instant an ISO 8601 date-time names, its offset written `±hh` too (Date.parse wants `±hh:mm`). */
export function instantOf(value: string): number {
  return Date.parse(value.replace(/([+-]\d{2})$/, '$1:00'));
}
