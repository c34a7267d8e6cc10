import type { AssessmentPoint } from "../../../src/sandbox/data/assessment-point";
import { DataError } from "../../../src/sandbox/data/data-error";
import { createSeries, lastIndexOnOrBefore, seriesToPoints } from "../../../src/sandbox/data/series";

function point(date: string, low: number, mid: number, high: number, extra: Partial<AssessmentPoint> = {}): AssessmentPoint {
  return { date, assessmentDate: `${date}T16:30:00+00:00`, revision: 0, low, mid, high, appraisalPrice: false, pricingRationale: "", ...extra };
}

describe("createSeries", () => {
  it("holds the points it is given, in columns and as points again", () => {
    const points = [
      point("2024-03-01", 10, 11, 12, { pricingRationale: "first" }),
      point("2024-03-04", -2, -1, 0, { revision: 1, assessmentDate: "2024-03-06T10:00:00+08:00", appraisalPrice: true }),
      point("2024-03-05", 5, 5, 5, { forwardCurves: [{ forwardCode: "M1", forwardMonth: "APR", low: 5, mid: 6, high: 7 }] }),
    ];
    const series = createSeries(points);
    expect(series.length).toBe(3);
    expect(Array.from(series.mid)).toEqual([11, -1, 5]);
    expect(Array.from(series.revision)).toEqual([0, 1, 0]);
    expect(series.days[0]).toBe(Date.UTC(2024, 2, 1) / 86_400_000);
    expect(series.assessmentDate(1)).toBe("2024-03-06T10:00:00+08:00");
    expect(series.appraisalPrice(1)).toBe(true);
    expect(series.pricingRationale(0)).toBe("first");
    expect(series.forwardCurves(0)).toBeUndefined();
    expect(seriesToPoints(series)).toEqual(points);
  });

  it("accepts a non-padded date and stores it canonical", () => {
    const series = createSeries([point("2024-3-1", 1, 2, 3, { assessmentDate: "2024-03-01T16:30:00+00:00" })]);
    expect(seriesToPoints(series)[0]?.date).toBe("2024-03-01");
  });

  it("rejects days out of order or repeated, naming the index and the dates", () => {
    expect(() => createSeries([point("2024-03-02", 1, 2, 3), point("2024-03-01", 1, 2, 3)])).toThrow(
      "points[1].date: 2024-03-01 must come after the previous assessment's date 2024-03-02",
    );
    expect(() => createSeries([point("2024-03-02", 1, 2, 3), point("2024-03-02", 1, 2, 3)])).toThrow(/points\[1\]\.date: 2024-03-02 must come after/);
  });

  it("rejects low > mid or mid > high, naming the index and the date", () => {
    expect(() => createSeries([point("2024-03-01", 1, 2, 3), point("2024-03-04", 3, 2, 4)])).toThrow(
      "points[1].mid: expected low <= mid <= high on 2024-03-04, got low 3, mid 2, high 4",
    );
    expect(() => createSeries([point("2024-03-01", 1, 5, 3)])).toThrow(/points\[0\]\.mid: expected low <= mid <= high on 2024-03-01/);
  });

  it("rejects wrong types field by field", () => {
    const bad = (extra: Record<string, unknown>): AssessmentPoint[] => [{ ...point("2024-03-01", 1, 2, 3), ...extra } as AssessmentPoint];
    expect(() => createSeries(bad({ mid: "2" }))).toThrow('points[0].mid: expected a number, got "2"');
    expect(() => createSeries(bad({ date: "01/03/2024" }))).toThrow(/points\[0\]\.date: expected a date YYYY-MM-DD/);
    expect(() => createSeries(bad({ revision: -1 }))).toThrow(/points\[0\]\.revision/);
    expect(() => createSeries(bad({ assessmentDate: "2024-03-01 16:30" }))).toThrow(/points\[0\]\.assessmentDate: expected an ISO 8601 date-time with UTC offset/);
    expect(() => createSeries(bad({ assessmentDate: "2024-02-28T16:30:00+00:00" }))).toThrow(/points\[0\]\.assessmentDate: .* is before the day it assesses/);
    expect(() => createSeries(bad({ appraisalPrice: "no" }))).toThrow(/points\[0\]\.appraisalPrice/);
    expect(() => createSeries(bad({ forwardCurves: [{ forwardCode: "X1", forwardMonth: "APR", low: 1, mid: 1, high: 1 }] }))).toThrow(
      /points\[0\]\.forwardCurves\[0\]\.forwardCode/,
    );
  });

  it("throws DataError with where and problem", () => {
    try {
      createSeries([point("2024-03-01", 1, 2, Number.NaN)], "mine");
      throw new Error("no error");
    } catch (error) {
      expect(error).toBeInstanceOf(DataError);
      expect((error as DataError).where).toBe("mine[0].high");
    }
  });
});

describe("lastIndexOnOrBefore", () => {
  it("finds the latest assessment on or before a day, or -1", () => {
    const series = createSeries([point("2024-03-01", 1, 1, 1), point("2024-03-04", 2, 2, 2), point("2024-03-06", 3, 3, 3)]);
    const day = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
    expect(lastIndexOnOrBefore(series, day("2024-02-29"))).toBe(-1);
    expect(lastIndexOnOrBefore(series, day("2024-03-01"))).toBe(0);
    expect(lastIndexOnOrBefore(series, day("2024-03-05"))).toBe(1);
    expect(lastIndexOnOrBefore(series, day("2024-12-31"))).toBe(2);
  });
});
