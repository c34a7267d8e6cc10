import fc from "fast-check";
import { addDays, daysInMonth, fromEpochDay, parseInstant, parseIsoDate, toEpochDay } from "../../src/api/dates";

/** Every valid date of years 0000 to 9999, canonical, weighted so that years 0000-0099 come up often. */
const year = fc.oneof(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 9999 }));
const isoDate = fc
  .tuple(year, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
  .map(([y, m, d]) => {
    // Clamp the day through setUTCFullYear, which (unlike Date.UTC) takes years 0-99 as given.
    const date = new Date(0);
    date.setUTCFullYear(y, m, 0);
    return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(Math.min(d, date.getUTCDate())).padStart(2, "0")}`;
  });

/** Independent oracle: the epoch day through setUTCFullYear. */
function oracleEpochDay(iso: string): number {
  const date = new Date(0);
  date.setUTCFullYear(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10)));
  return date.getTime() / 86_400_000;
}

describe("addDays", () => {
  it("moves across month, leap-day and year ends in both directions", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2024-02-28", 2)).toBe("2024-03-01");
    expect(addDays("2023-02-28", 1)).toBe("2023-03-01");
    expect(addDays("2025-01-01", -1)).toBe("2024-12-31");
    expect(addDays("2025-06-30", -365)).toBe("2024-06-30");
    expect(addDays("2024-03-01", 0)).toBe("2024-03-01");
  });

  it("moves across the ends of years 0000 to 0099 as it does elsewhere", () => {
    expect(addDays("0050-12-31", 1)).toBe("0051-01-01");
    expect(addDays("0001-01-01", -1)).toBe("0000-12-31");
    expect(addDays("0099-12-31", 1)).toBe("0100-01-01");
    expect(addDays("0004-02-28", 1)).toBe("0004-02-29");
    expect(addDays("0100-02-28", 1)).toBe("0100-03-01");
  });
});

describe("epoch days", () => {
  it("reads known days, years 0000 to 0099 included", () => {
    expect(toEpochDay("1970-01-01")).toBe(0);
    expect(toEpochDay("2000-03-01")).toBe(11_017);
    expect(toEpochDay("1969-12-31")).toBe(-1);
    expect(toEpochDay("0000-03-01")).toBe(-719_468);
    expect(toEpochDay("0001-01-01")).toBe(-719_162);
    // 1900 years of 365 days plus 460 leap days (475 fourth years less 15 centuries not divisible by 400).
    expect(toEpochDay("1950-01-01") - toEpochDay("0050-01-01")).toBe(1900 * 365 + 460);
    expect(fromEpochDay(toEpochDay("0050-01-01"))).toBe("0050-01-01");
  });

  it("round-trips every valid date: fromEpochDay(toEpochDay(d)) is d", () => {
    fc.assert(
      fc.property(isoDate, (date) => {
        expect(fromEpochDay(toEpochDay(date))).toBe(date);
        expect(toEpochDay(date)).toBe(oracleEpochDay(date));
      }),
      { numRuns: 2000 },
    );
  });

  it("counts consecutive dates as consecutive days", () => {
    fc.assert(
      fc.property(isoDate, (date) => {
        const next = fromEpochDay(toEpochDay(date) + 1);
        expect(next > date).toBe(true);
        expect(oracleEpochDay(next) - oracleEpochDay(date)).toBe(1);
      }),
      { numRuns: 500 },
    );
  });
});

describe("daysInMonth and parseIsoDate", () => {
  it("knows leap years of every century, years 0000 to 0099 as themselves (0000 leap, 1900 not)", () => {
    expect(daysInMonth(0, 2)).toBe(29);
    expect(daysInMonth(4, 2)).toBe(29);
    expect(daysInMonth(1, 2)).toBe(28);
    expect(daysInMonth(100, 2)).toBe(28);
    expect(daysInMonth(400, 2)).toBe(29);
    expect(daysInMonth(1900, 2)).toBe(28);
    expect(daysInMonth(2000, 2)).toBe(29);
    expect(daysInMonth(96, 2)).toBe(29);
    expect(daysInMonth(2024, 4)).toBe(30);
  });

  it("accepts 0004-02-29 and refuses 0100-02-29 and 0001-02-29", () => {
    expect(parseIsoDate("0004-2-29")).toBe("0004-02-29");
    expect(parseIsoDate("0100-02-29")).toBeUndefined();
    expect(parseIsoDate("0001-02-29")).toBeUndefined();
  });

  it("agrees with the oracle on the length of every month", () => {
    fc.assert(
      fc.property(year, fc.integer({ min: 1, max: 12 }), (y, m) => {
        const date = new Date(0);
        date.setUTCFullYear(y, m, 0);
        expect(daysInMonth(y, m)).toBe(date.getUTCDate());
      }),
      { numRuns: 1000 },
    );
  });
});

describe("parseInstant", () => {
  it("reads an ISO 8601 date-time with Z or an offset, seconds and fractions optional", () => {
    expect(parseInstant("2025-06-30T09:25Z")).toBe(Date.UTC(2025, 5, 30, 9, 25));
    expect(parseInstant("2025-06-30T09:25:30.5+02:00")).toBe(Date.UTC(2025, 5, 30, 7, 25, 30, 500));
  });

  it.each(["2025-06-30T09:25", "2025-06-30", "2025-6-30T09:25Z", "Mon, 30 Jun 2025 09:25:00 GMT", "2025-06-30T25:00Z", " 2025-06-30T09:25Z"])(
    "refuses %s: no offset, not a date-time, or out of range",
    (text) => expect(parseInstant(text)).toBeUndefined(),
  );

  it("refuses a day that does not exist, which Date.parse rolls into the next month", () => {
    expect(Number.isNaN(Date.parse("2024-02-30T00:00Z"))).toBe(false);
    expect(parseInstant("2024-02-30T00:00Z")).toBeUndefined();
    expect(parseInstant("2023-02-29T00:00Z")).toBeUndefined();
    expect(parseInstant("2024-02-29T00:00Z")).toBe(Date.UTC(2024, 1, 29));
  });
});
