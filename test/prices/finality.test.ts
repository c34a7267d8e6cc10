/** When a kept answer is final (decision 23), read from its key id: dated prices, averages, histories, latest values. */
import { finalSince, isFinal, periodEnd } from "../../src/prices/persistent/finality";

describe("finality", () => {
  it("makes a dated price final once its day lies more than the window before today", () => {
    const id = "p|MB-CU-0001|2025-06-10|None|";
    expect(finalSince(id, 7)).toBe("2025-06-18");
    expect(isFinal(id, "2025-06-17", 7)).toBe(false);
    expect(isFinal(id, "2025-06-18", 7)).toBe(true);
    expect(isFinal("p|MB-CU-0001|2025-06-10|None|pricingRationale|EUR/LB", "2025-06-18", 7)).toBe(true);
  });
  it("never makes a latest value, an instrument or a reference final", () => {
    expect(finalSince("p|MB-CU-0001|latest|None|", 7)).toBeUndefined();
    expect(finalSince("i|MB-CU-0001|", 7)).toBeUndefined();
    expect(finalSince("r|Currency", 7)).toBeUndefined();
  });
  it("makes an average final once its period has ended and its last day is final", () => {
    expect(periodEnd("2025-06-11", "WeeklyAverage")).toBe("2025-06-15");
    expect(periodEnd("2025-02-11", "MonthlyAverage")).toBe("2025-02-28");
    expect(periodEnd("2024-02-11", "MonthlyAverage")).toBe("2024-02-29");
    expect(periodEnd("2025-05-02", "QuarterlyAverage")).toBe("2025-06-30");
    expect(periodEnd("2025-05-02", "YearlyAverage")).toBe("2025-12-31");
    expect(finalSince("p|MB-CU-0001|2025-06-03|MonthlyAverage|", 7)).toBe("2025-07-08");
  });
  it("makes a history final from its last day, and never one with a forecast", () => {
    expect(finalSince("h|MB-CU-0001|2025-01-01|2025-03-31|AssessmentDays|false||None|", 7)).toBe("2025-04-08");
    expect(finalSince("h|MB-CU-0001|2025-01-01|2025-03-31|AssessmentDays|false||MonthlyAverage|EUR/T|", 7)).toBe("2025-04-08");
    expect(finalSince("h|MB-CU-0001|2025-01-01|2025-03-31|AssessmentDays|false|F24M|None|", 7)).toBeUndefined();
  });
});
