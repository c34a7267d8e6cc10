import { fromEpochDay, toEpochDay } from "../../src/api/dates";

export function addDays(date: string, days: number): string {
  return fromEpochDay(toEpochDay(date) + days);
}
