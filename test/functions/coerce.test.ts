import {
  MAX_CELLS,
  choiceOf,
  dateOf,
  headersOf,
  nameList,
  optionalText,
  requiredDate,
  scalar,
  toMatrix,
} from "../../src/functions/coerce";
import { ArgumentError, describeFailure } from "../../src/functions/errors";
import { crossLayout, readItems } from "../../src/functions/shape";
import { AuthError, HTTPError, InvalidInstrumentError, NoDataError, TimeoutError } from "../../src/prices/errors";

function messageOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ArgumentError);
    return (error as Error).message;
  }
  throw new Error("expected an ArgumentError");
}

describe("dates in", () => {
  it("reads serials, padded and non-padded text, blanks and 'latest'", () => {
    expect(dateOf(45352)).toBe("2024-03-01");
    expect(dateOf(" 2024-3-1 ")).toBe("2024-03-01");
    expect(dateOf(null)).toBeUndefined();
    expect(dateOf(undefined)).toBeUndefined();
    expect(dateOf("  ")).toBeUndefined();
    expect(dateOf("LATEST")).toBeUndefined();
  });

  it("says what to fix for anything else", () => {
    expect(messageOf(() => dateOf("2024-13-01"))).toBe("date must be a date or YYYY-MM-DD, got '2024-13-01'");
    expect(messageOf(() => dateOf("01/03/2024", "from"))).toBe("from must be a date or YYYY-MM-DD, got '01/03/2024'");
    expect(messageOf(() => dateOf(false))).toBe("date must be a date or YYYY-MM-DD, got FALSE");
    expect(messageOf(() => dateOf(60))).toBe("date must be a date or YYYY-MM-DD, got 60");
    expect(messageOf(() => requiredDate("latest", "from"))).toBe("from must be a date or YYYY-MM-DD, got 'latest'");
  });

  it("reads a text it has read before the same, and refuses a bad one every time (a model gives 50 dates to 10,000 calls)", () => {
    for (let turn = 0; turn < 3; turn += 1) {
      expect(dateOf(" 2024-3-2 ")).toBe("2024-03-02");
      expect(dateOf("2024-03-02")).toBe("2024-03-02");
      expect(dateOf("latest")).toBeUndefined();
      expect(messageOf(() => dateOf("2024-02-30", "to"))).toBe("to must be a date or YYYY-MM-DD, got '2024-02-30'");
    }
    // thousands of texts, past what is kept: each still read right
    for (let day = 0; day < 5000; day += 1) expect(dateOf(`${2000 + Math.floor(day / 365)}-1-${1 + (day % 28)}`)).toBe(`${2000 + Math.floor(day / 365)}-01-${String(1 + (day % 28)).padStart(2, "0")}`);
  });
});

describe("ranges", () => {
  it("wraps scalars, keeps rectangles and refuses ragged or oversized ranges", () => {
    expect(toMatrix("A", "symbols")).toEqual([["A"]]);
    expect(toMatrix([[1, 2], [3, 4]], "symbols")).toEqual([[1, 2], [3, 4]]);
    expect(toMatrix(["a", "b"], "symbols")).toEqual([["a", "b"]]);
    expect(messageOf(() => toMatrix([[1, 2], [3]], "dates"))).toBe("dates must be a rectangular range");
    const rows = Math.ceil((MAX_CELLS + 1) / 10);
    expect(messageOf(() => toMatrix(Array.from({ length: rows }, () => new Array(10).fill("x")), "dates"))).toBe(
      `dates has ${(rows * 10).toLocaleString("en-US")} cells; the limit is 100,000`,
    );
  });

  it("unwraps a 1 x 1 range where one value is expected", () => {
    expect(scalar([["x"]], "symbol")).toBe("x");
    expect(messageOf(() => scalar([["x", "y"]], "symbol"))).toBe("symbol must be one value, got a range of 1 x 2");
  });

  it("lays symbols down and dates across, or keeps the shape of the only range", () => {
    const items = (matrix: unknown[][]) => readItems(matrix, (cell) => cell);
    const both = crossLayout(items([["a", "b"]]), items([[1], [2], [3]]));
    expect([both.rows, both.cols]).toEqual([2, 3]);
    expect(both.at(1, 2).map((item) => item.ok && item.value)).toEqual(["b", 3]);
    const onlySymbols = crossLayout(items([["a", "b"]]), items([[1]]));
    expect([onlySymbols.rows, onlySymbols.cols]).toEqual([1, 2]);
    const onlyDates = crossLayout(items([["a"]]), items([[1], [2]]));
    expect([onlyDates.rows, onlyDates.cols]).toEqual([2, 1]);
  });
});

describe("options", () => {
  const choices = [{ value: "WeeklyAverage", aliases: ["weekly"] }, { value: "MonthlyAverage" }] as const;

  it("matches choices without case, blanks or underscores and falls back on blank", () => {
    expect(choiceOf(" WEEKLY ", "period", choices, "MonthlyAverage")).toBe("WeeklyAverage");
    expect(choiceOf("monthly_average", "period", choices, "WeeklyAverage")).toBe("MonthlyAverage");
    expect(choiceOf(null, "period", choices, "MonthlyAverage")).toBe("MonthlyAverage");
    expect(messageOf(() => choiceOf(true, "period", choices, "MonthlyAverage"))).toBe("period must be one of WeeklyAverage, MonthlyAverage; got TRUE");
  });

  it("reads headers as 0, 1, 2 or TRUE/FALSE", () => {
    expect(headersOf(undefined)).toBe(1);
    expect(headersOf(0)).toBe(0);
    expect(headersOf("2")).toBe(2);
    expect(headersOf(false)).toBe(0);
    expect(messageOf(() => headersOf(1.5))).toBe("headers must be 0 (none), 1 (names) or 2 (symbol and names), got 1.5");
  });

  it("reads name lists from text and ranges, skipping blanks", () => {
    expect(nameList("date, mid;high", "fields")).toEqual(["date", "mid", "high"]);
    expect(nameList([["date"], [null], ["low,mid"]], "fields")).toEqual(["date", "low", "mid"]);
    expect(nameList(null, "fields")).toBeUndefined();
    expect(messageOf(() => nameList([[1]], "fields"))).toBe("fields must be names as text, got 1");
    expect(optionalText(2024, "id")).toBe("2024");
  });
});

describe("error mapping", () => {
  it("maps client errors to #N/A or #VALUE! with messages that say what to do", () => {
    expect(describeFailure(new InvalidInstrumentError("XX"))).toEqual({ code: "#N/A", message: "unknown or not permitted symbol 'XX'" });
    expect(describeFailure(new InvalidInstrumentError("XX", "Unknown symbol, or not one you may view")).message).toBe("unknown or not permitted symbol 'XX'");
    expect(describeFailure(new InvalidInstrumentError("XX", "Calculation type WeeklyAverage is not available for this instrument"))).toEqual({
      code: "#N/A",
      message: "'XX': Calculation type WeeklyAverage is not available for this instrument",
    });
    expect(describeFailure(new NoDataError("XX", "2001-01-01"))).toEqual({ code: "#N/A", message: "no assessment for 'XX' on or before 2001-01-01" });
    expect(describeFailure(new NoDataError("XX", undefined))).toEqual({ code: "#N/A", message: "no assessment for 'XX'" });
    expect(describeFailure(new AuthError({ reason: "not-signed-in" }))).toEqual({ code: "#N/A", message: "sign in from the Prices pane", unanswered: "refused" });
    expect(describeFailure(new TimeoutError({ method: "GET", url: "https://x/Prices", timeoutMs: 5 })).message).toBe(
      "service unreachable: Request failed (timed out after 5 ms): GET /Prices",
    );
    expect(describeFailure(new HTTPError({ status: 503, statusText: "Service Unavailable", method: "GET", url: "https://x/Prices" }))).toEqual({
      code: "#N/A",
      message: "service unreachable: Request failed with status 503 Service Unavailable: GET /Prices",
      unanswered: "service-error",
    });
    expect(describeFailure(new HTTPError({ status: 400, method: "GET", url: "https://x/Prices" })).code).toBe("#VALUE!");
    expect(describeFailure("boom")).toEqual({ code: "#N/A", message: "boom" });
  });
});
