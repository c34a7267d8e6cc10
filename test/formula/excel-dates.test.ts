import { dateTimeToSerial, isoDateToSerial, serialToIsoDate } from "../../src/formula/excel-dates";

/** Days between two UTC calendar dates, computed independently of the module. */
function daysBetween(from: [number, number, number], to: [number, number, number]): number {
  return (Date.UTC(to[0], to[1] - 1, to[2]) - Date.UTC(from[0], from[1] - 1, from[2])) / 86_400_000;
}

describe("Excel 1900 date system", () => {
  it("counts serial 1 as 1900-01-01 and 59 as 1900-02-28", () => {
    expect(serialToIsoDate(1)).toBe("1900-01-01");
    expect(serialToIsoDate(59)).toBe("1900-02-28");
    expect(isoDateToSerial("1900-01-01")).toBe(1);
    expect(isoDateToSerial("1900-02-28")).toBe(59);
  });

  it("refuses serial 60, Excel's fictitious 1900-02-29, and 0, negatives and past 9999-12-31", () => {
    for (const serial of [60, 0, -1, 2_958_466, Number.NaN, Number.POSITIVE_INFINITY]) expect(serialToIsoDate(serial)).toBeUndefined();
  });

  it("counts from 1899-12-30 from 1900-03-01 on", () => {
    expect(serialToIsoDate(61)).toBe("1900-03-01");
    const serial = daysBetween([1899, 12, 30], [2024, 3, 1]);
    expect(serialToIsoDate(serial)).toBe("2024-03-01");
    expect(isoDateToSerial("2024-03-01")).toBe(serial);
    expect(serialToIsoDate(2_958_465)).toBe("9999-12-31");
  });

  it("ignores the time of day in a fractional serial", () => {
    expect(serialToIsoDate(45352.75)).toBe(serialToIsoDate(45352));
  });

  it("round-trips every date of 1900 to 2100", () => {
    for (let serial = 1; serial <= isoDateToSerial("2100-12-31"); serial += 1) {
      if (serial === 60) continue;
      expect(isoDateToSerial(serialToIsoDate(serial)!)).toBe(serial);
    }
  });

  it("turns date-times into serials with the UTC time of day as fraction", () => {
    expect(dateTimeToSerial("2024-03-01T18:00:00+00:00")).toBe(isoDateToSerial("2024-03-01") + 0.75);
    expect(dateTimeToSerial("2024-03-01T23:00:00-02:00")).toBe(isoDateToSerial("2024-03-02") + 1 / 24);
    expect(dateTimeToSerial("2024-03-01")).toBe(isoDateToSerial("2024-03-01"));
    expect(dateTimeToSerial("yesterday")).toBeUndefined();
  });
});
