/** When an assessment is due and whether today's is out, from recent assessments and the instant. */
import { londonOffset, publicationStatus, usualTime, type Assessed } from "../../src/taskpane/publication";

/** Weekday assessments of a London market from 2025-06-02 to the day before `until`, made at 16:28 to 16:33. */
function dailyLondon(until: string): Assessed[] {
  const out: Assessed[] = [];
  for (let day = Date.parse("2025-06-02T00:00:00Z"); day < Date.parse(`${until}T00:00:00Z`); day += 86_400_000) {
    const date = new Date(day).toISOString().slice(0, 10);
    const weekday = new Date(day).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    out.push({ date, assessmentDate: `${date}T16:${String(28 + (out.length % 6)).padStart(2, "0")}:00+01:00` });
  }
  return out;
}
const BST = (): number => 60;

describe("publication", () => {
  it("at 09:00 on a weekday, before the usual time: awaiting today's assessment", () => {
    const status = publicationStatus(dailyLondon("2025-06-30"), "Daily", Date.parse("2025-06-30T08:00:00Z"), BST);
    expect(status.state).toBe("awaiting");
    const latest = dailyLondon("2025-06-30").at(-1) as Assessed;
    expect(status.text).toBe(`Awaiting today's assessment, usually published around 16:30 London. The latest is 2025-06-27's, published 2025-06-27 at ${latest.assessmentDate.slice(11, 16)} London.`);
  });

  it("after the usual time without today's: late; with today's: out", () => {
    expect(publicationStatus(dailyLondon("2025-06-30"), "Daily", Date.parse("2025-06-30T17:00:00Z"), BST).state).toBe("late");
    const withToday = publicationStatus(dailyLondon("2025-07-01"), "Daily", Date.parse("2025-06-30T17:00:00Z"), BST);
    const today = dailyLondon("2025-07-01").at(-1) as Assessed;
    expect(withToday).toEqual({ state: "published", text: `Today's assessment is out: published at ${today.assessmentDate.slice(11, 16)} London (usually around 16:30 London).` });
  });

  it("on a Saturday nothing is due, and the next is Monday", () => {
    const status = publicationStatus(dailyLondon("2025-06-28"), "Daily", Date.parse("2025-06-28T08:00:00Z"), BST);
    expect(status.state).toBe("not-due");
    expect(status.text).toContain("No assessment due today (assessed on weekdays); the next is due Monday 2025-06-30, usually around 16:30 London.");
  });

  it("a weekly Friday market elsewhere: its own offset and London's time", () => {
    const fridays = ["2025-06-06", "2025-06-13", "2025-06-20", "2025-06-27"].map((date) => ({ date, assessmentDate: `${date}T16:20:00+08:00` }));
    const monday = publicationStatus(fridays, "Weekly", Date.parse("2025-06-30T02:00:00Z"), BST);
    expect(monday.text).toContain("assessed on Fridays); the next is due Friday 2025-07-04, usually around 16:20 UTC+08:00 (09:20 London)");
    expect(publicationStatus(fridays, "Weekly", Date.parse("2025-07-04T02:00:00Z"), BST).state).toBe("awaiting");
    // when the latest was published, in the same words: the market's time and London's
    expect(monday.text).toContain("The latest is 2025-06-27's, published 2025-06-27 at 16:20 UTC+08:00 (09:20 London).");
  });

  it("a twice-weekly Tuesday and Thursday market is not due on a Friday, however its gaps fall", () => {
    const days = ["2025-06-10", "2025-06-12", "2025-06-17", "2025-06-19", "2025-06-24", "2025-06-26", "2025-07-01", "2025-07-03"];
    const assessed = ["2025-06-03", "2025-06-05", ...days].map((date) => ({ date, assessmentDate: `${date}T16:30:00+01:00` }));
    // the median gap of these ten is 2 days (five gaps of 2, four of 5): still not every weekday
    const friday = publicationStatus(assessed, "Twice weekly", Date.parse("2025-07-04T17:00:00Z"), BST);
    expect(friday.state).toBe("not-due");
    expect(friday.text).toContain("No assessment due today (assessed on Tuesdays and Thursdays); the next is due Tuesday 2025-07-08");
    expect(publicationStatus(assessed.slice(0, 9), "Twice weekly", Date.parse("2025-07-03T08:00:00Z"), BST).state).toBe("awaiting");
  });

  it("says so when there is nothing recent", () => {
    expect(publicationStatus([], "Monthly", Date.now()).state).toBe("unknown");
  });

  it("reads London's offset from the time-zone data: BST in summer, GMT in winter", () => {
    expect(londonOffset("2025-06-30")).toBe(60);
    expect(londonOffset("2025-01-15")).toBe(0);
    expect(usualTime(990, 0, "2025-01-15", londonOffset)).toBe("16:30 London");
  });
});
