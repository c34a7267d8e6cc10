/**
 * A long history that starts before the instrument's launch is asked from the launch on: the days before it
 * hold nothing and asking them only costs requests.
 */
import { setup } from "./setup";
import type { ManualScheduler, SymbolHistory } from "../../src/prices";

/** Flushes every window until the answer comes (the parts and the instrument's record are asked after the first window). */
async function settled<T>(manual: ManualScheduler, asked: Promise<T>): Promise<T> {
  let done = false;
  const finished = asked.finally(() => (done = true));
  while (!done) {
    manual.flush();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return finished;
}

describe("a long history starting before the instrument's launch", () => {
  it("is asked from the launch on, in the requests the launched range needs, and equals one request of the whole", async () => {
    // The fake's instruments launched on 2020-01-01 and are assessed every other day from then on.
    const key = { symbol: "AAA", fromDate: "2010-01-01", toDate: "2024-06-28", calendarType: "CalendarDays" as const, carryForward: true };
    const split = setup({ limits: { maxRecords: 600 } });
    const history: SymbolHistory = await settled(split.manual, split.client.history(key));
    const histories = split.calls.filter((call) => call.path.endsWith("/History"));
    // 2020-01-01 to 2024-06-28 is 1,641 calendar days: 3 parts of at most 600, and one /Instruments request.
    expect(histories).toHaveLength(3);
    expect(histories.every((call) => call.params.FromDate !== undefined && call.params.FromDate >= "2020-01-01")).toBe(true);
    expect(split.calls.filter((call) => call.path.endsWith("/Instruments"))).toHaveLength(1);

    const whole = setup();
    const expected: SymbolHistory = await settled(whole.manual, whole.client.history(key));
    expect(history.prices).toEqual(expected.prices);
    expect([...history.assessedDates].sort()).toEqual([...expected.assessedDates].sort());
  });
});
