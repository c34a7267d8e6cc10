/** Expected values computed from plain points, independently of the service's code. */
import type { AssessmentPoint } from "../../../src/sandbox/data/assessment-point";

export function round(value: number, places: number): number {
  const factor = 10 ** places;
  const r = Math.round(value * factor) / factor;
  return r === 0 ? 0 : r;
}

export function mean(points: readonly AssessmentPoint[], key: "low" | "mid" | "high"): number {
  return round(points.reduce((sum, p) => sum + p[key], 0) / points.length, 2);
}

/** YYYY-MM-DD of the Monday of the ISO week holding `date`. */
export function mondayOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const weekday = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - weekday);
  return d.toISOString().slice(0, 10);
}

export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

export function lastDayOfMonth(date: string): string {
  const d = new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)), 0));
  return d.toISOString().slice(0, 10);
}

/** Every date from `from` to `to`, inclusive, ascending. */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) dates.push(d);
  return dates;
}

export function isWeekday(date: string): boolean {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day !== 0 && day !== 6;
}

/** The latest point on or before `date`. */
export function onOrBefore(points: readonly AssessmentPoint[], date: string): AssessmentPoint | undefined {
  let found: AssessmentPoint | undefined;
  for (const p of points) if (p.date <= date) found = p;
  return found;
}
