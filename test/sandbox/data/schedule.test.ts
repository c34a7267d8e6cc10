/** The schedule stepped by weekday (assessmentDays) against the one-day rule (isAssessmentDay) it replaces in the generator's loop. */
import { toEpochDay, type Frequency } from "../../../src/api";
import { assessmentDays, isAssessmentDay } from "../../../src/sandbox/data/schedule";

const FREQUENCIES: readonly Frequency[] = ["Daily", "Twice weekly", "Weekly", "Monthly"];

/** Every day from `from` to `to` that isAssessmentDay takes, tested one by one. */
function dayByDay(frequency: Frequency, weeklyDay: number, from: number, to: number): number[] {
  const days: number[] = [];
  for (let day = from; day <= to; day++) if (isAssessmentDay(frequency, weeklyDay, day)) days.push(day);
  return days;
}

it("finds the same days as testing each calendar day, for every frequency, weekday and starting weekday", () => {
  const start = toEpochDay("2004-12-20");
  for (const frequency of FREQUENCIES) {
    for (let weeklyDay = 0; weeklyDay < 5; weeklyDay++) {
      // starts on each day of a week (holidays and month ends among them), over years with 29 February
      for (let offset = 0; offset < 7; offset++) {
        const from = start + offset * 53;
        const to = from + 3000 + offset * 11;
        expect(Array.from(assessmentDays(frequency, weeklyDay, from, to))).toEqual(dayByDay(frequency, weeklyDay, from, to));
      }
    }
  }
});

it("gives no day for an empty range, and the one day of a range of one assessment day", () => {
  const friday = toEpochDay("2025-06-27");
  expect(assessmentDays("Daily", 0, friday, friday - 1)).toHaveLength(0);
  expect(Array.from(assessmentDays("Daily", 0, friday, friday))).toEqual([friday]);
  expect(Array.from(assessmentDays("Weekly", 4, friday, friday))).toEqual([friday]);
  expect(assessmentDays("Weekly", 3, friday, friday)).toHaveLength(0);
});
