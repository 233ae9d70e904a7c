/**
 * The runtime of generated/answer-formats.ts: the formats the answer checks of `deployment-client/validate` use, as
 * the contract's format policy defines them (D-78), without ajv-formats, so that the entry needs no Ajv package (D-332).
 * A real source file so that the compiler checks it; generator/ copies it.
 */

const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const fullDate = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const fullTime = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i;
const daysInMonth = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** RFC 3339 full-date with real days of the month, leap years included. */
function isFullDate(text: string): boolean {
  const match = fullDate.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : (daysInMonth[month] ?? 0));
}

/** RFC 3339 full-time with its zone required; a leap second only at 23:59 UTC. */
function isFullTime(text: string): boolean {
  const match = fullTime.exec(text);
  if (!match?.[4]) return false;
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const sign = match[5] === "-" ? -1 : 1;
  const [zoneHour, zoneMinute] = [Number(match[6] ?? 0), Number(match[7] ?? 0)];
  if (zoneHour > 23 || zoneMinute > 59) return false;
  if (hour <= 23 && minute <= 59 && second < 60) return true;
  const utcMinute = minute - zoneMinute * sign;
  const utcHour = hour - zoneHour * sign - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61;
}

/** Format name → check, in the shape Ajv's standalone code calls (`format.validate(value)`). */
export const contractFormats: Record<string, { validate: (value: never) => boolean }> = {
  int32: { validate: (n: number) => Number.isInteger(n) && n >= int32.min && n <= int32.max },
  int64: { validate: (n: number) => Number.isSafeInteger(n) },
  float: { validate: (n: number) => Number.isFinite(n) },
  double: { validate: (n: number) => Number.isFinite(n) },
  "date-time": {
    validate: (text: string) => {
      const parts = text.split(/t|\s/i);
      return parts.length === 2 && isFullDate(parts[0] as string) && isFullTime(parts[1] as string);
    },
  },
};

/** The length of a string in code points, as JSON Schema's `minLength` and `maxLength` count it. */
export function ucs2length(text: string): number {
  return [...text].length;
}
