/**
 * Every error a cell can show, through the runner's page against the sandbox (or a closed port): the code, the
 * message that says what to fix, only the failing cells of a grid, and never a cell left on #BUSY!.
 */
import { createServer, type Socket } from "node:net";
import type { EvaluationResult } from "../../src/host/page-api";
import { closedPort, instrumentRecords, prices, region, startE2E, text, type Cells, type E2E, type JsonObject } from "./support";

jest.setTimeout(120_000);

const DATE = "2025-05-14";
const UNKNOWN = "ZZ-NOPE-0000";

let e2e: E2E;
let records: JsonObject[];
/** Two active daily instruments that are not in the trial entitlement (MB- only). */
let outside: string[];
let trialSymbol: string;

beforeAll(async () => {
  e2e = await startE2E();
  records = await instrumentRecords(e2e);
  const old = records.filter((record) => record.status === "Active" && String(record.launchDate) < "2024-01-01");
  outside = old.filter((record) => !String(record.symbol).startsWith("MB-")).map((record) => String(record.symbol)).slice(0, 2);
  trialSymbol = String(old.find((record) => String(record.symbol).startsWith("MB-"))?.symbol ?? "");
  if (outside.length < 2 || trialSymbol === "") throw new Error("the sandbox lacks MB- and other instruments");
});

afterAll(async () => {
  await e2e?.close();
});

function symbol(): string {
  return outside[0] ?? "";
}

async function mids(symbols: readonly string[], dates: readonly string[], token?: string): Promise<Map<string, unknown>> {
  const json = await e2e.service("/Prices", { Symbols: symbols.join(","), Dates: dates.join(",") }, token);
  const out = new Map<string, unknown>();
  for (const name of symbols) for (const price of prices(json, name)) out.set(`${name}|${String(price.date)}`, price.mid);
  return out;
}

/** No cell of any result may be left pending. */
function expectSettled(result: EvaluationResult): void {
  expect(Object.values(result.cells).filter((value) => String(value).startsWith("#BUSY!"))).toEqual([]);
}

describe("bad arguments: #VALUE! with what to fix", () => {
  it("names a bad date, in a single cell and only in its own column of a grid", async () => {
    const [a, b] = outside;
    const result = await e2e.evaluate({
      A1: `=PRICES.MID("${symbol()}", "2024-13-01")`,
      A2: `=PRICES.HISTORY("${symbol()}", "first of May", "${DATE}")`,
      A3: `=PRICES.PRICE("${symbol()}", TRUE)`,
      B5: DATE,
      C5: "2025-02-30",
      A6: a,
      A7: b,
      B6: "=PRICES.MID(A6:A7, B5:C5)",
    });
    expect(result.cells.A1).toBe("#VALUE!: date must be a date or YYYY-MM-DD, got '2024-13-01'");
    expect(result.cells.A2).toBe("#VALUE!: from must be a date or YYYY-MM-DD, got 'first of May'");
    expect(result.cells.A3).toBe("#VALUE!: date must be a date or YYYY-MM-DD, got TRUE");
    const expected = await mids(outside, [DATE]);
    const bad = "#VALUE!: date must be a date or YYYY-MM-DD, got '2025-02-30'";
    expect(region(result.cells, 1, 6, 2, 2)).toEqual([
      [expected.get(`${a ?? ""}|${DATE}`), bad],
      [expected.get(`${b ?? ""}|${DATE}`), bad],
    ]);
  });

  it("names the choices of each enumeration given a wrong value", async () => {
    const s = symbol();
    const cells: Cells = {
      A1: `=PRICES.PRICE("${s}", , "volume")`,
      A2: `=PRICES.PRICE("${s}", , "mid", "Daily")`,
      A3: `=PRICES.PRICE("${s}", , "date", , "roman")`,
      A4: `=PRICES.AVERAGE("${s}", "Fortnightly")`,
      A5: `=PRICES.HISTORY("${s}", "2025-05-01", "${DATE}", , , "Monthly")`,
      A6: `=PRICES.HISTORY("${s}", "2025-05-01", "${DATE}", , , , , "sideways")`,
      A7: `=PRICES.HISTORY("${s}", "2025-05-01", "${DATE}", , 3)`,
      A8: `=PRICES.HISTORY("${s}", "2025-05-01", "${DATE}", "date,volume")`,
      A9: `=PRICES.INSTRUMENT("${s}", "colour")`,
      A10: '=PRICES.REFERENCE("Colour")',
      A11: `=PRICES.HISTORY("${s}", "${DATE}", "2025-05-01")`,
    };
    const result = await e2e.evaluate(cells);
    const expected: Record<string, RegExp> = {
      A1: /^#VALUE!: field must be one of low, mid, high, .*; got 'volume'$/,
      A2: /^#VALUE!: calculation must be one of None, WeeklyAverage, MonthlyAverage, QuarterlyAverage, YearlyAverage; got 'Daily'$/,
      A3: /^#VALUE!: dateFormat must be one of serial, text; got 'roman'$/,
      A4: /^#VALUE!: period must be one of WeeklyAverage, MonthlyAverage, QuarterlyAverage, YearlyAverage; got 'Fortnightly'$/,
      A5: /^#VALUE!: calendar must be one of AssessmentDays, Weekdays, CalendarDays; got 'Monthly'$/,
      A6: /^#VALUE!: order must be one of ascending, descending; got 'sideways'$/,
      A7: /^#VALUE!: headers must be 0 \(none\), 1 \(names\) or 2 \(symbol and names\), got 3$/,
      A8: /^#VALUE!: fields must name low, mid, high, date, .*, assessed; got 'volume'$/,
      A9: /^#VALUE!: field must be one of symbol, .*; got 'colour'$/,
      A10: /^#VALUE!: type must be one of Currency, UnitOfMeasure, PriceCalculationType, Incoterm, Commodity, Source; got 'Colour'$/,
      A11: /^#VALUE!: from \(2025-05-14\) is after to \(2025-05-01\)$/,
    };
    for (const [at, pattern] of Object.entries(expected)) expect([at, result.cells[at]]).toEqual([at, expect.stringMatching(pattern)]);
  });
});

describe("symbols and dates without data: #N/A", () => {
  it("says an unknown symbol is unknown or not permitted, only in its own row of a grid", async () => {
    const [a] = outside;
    const result = await e2e.evaluate({
      A1: `=PRICES.MID("${UNKNOWN}")`,
      A2: `=PRICES.HISTORY("${UNKNOWN}", "2025-05-01", "${DATE}")`,
      A3: `=PRICES.INSTRUMENT("${UNKNOWN}", "description")`,
      A4: `=PRICES.CURVE("${UNKNOWN}")`,
      B6: DATE,
      A7: a,
      A8: UNKNOWN,
      B7: "=PRICES.MID(A7:A8, B6)",
    });
    const message = `#N/A: unknown or not permitted symbol '${UNKNOWN}'`;
    for (const at of ["A1", "A2", "A3", "A4", "B8"]) expect([at, result.cells[at]]).toEqual([at, message]);
    expect(result.cells.B7).toBe((await mids([a ?? ""], [DATE])).get(`${a ?? ""}|${DATE}`));
  });

  it("says a symbol outside the trial entitlement is unknown or not permitted, as for an unknown one", async () => {
    const trialToken = await e2e.clientToken("sandbox-trial", "sandbox-trial-secret");
    const [a, b] = outside;
    const result = await e2e.evaluate(
      {
        A1: `=PRICES.MID("${a ?? ""}", "${DATE}")`,
        A2: `=PRICES.HISTORY("${b ?? ""}", "2025-05-01", "${DATE}")`,
        A3: `=PRICES.INSTRUMENT("${a ?? ""}", "description")`,
        A4: `=PRICES.MID("${UNKNOWN}", "${DATE}")`,
        A5: `=PRICES.MID("${trialSymbol}", "${DATE}")`,
        A6: '=PRICES.INSTRUMENTS(, "symbol", 0)',
      },
      { token: trialToken },
    );
    expect(result.cells.A1).toBe(`#N/A: unknown or not permitted symbol '${a ?? ""}'`);
    expect(result.cells.A2).toBe(`#N/A: unknown or not permitted symbol '${b ?? ""}'`);
    expect(result.cells.A3).toBe(`#N/A: unknown or not permitted symbol '${a ?? ""}'`);
    expect(String(result.cells.A1).replace(a ?? "", UNKNOWN)).toBe(result.cells.A4);
    // The trial client still sees its own instruments, exactly those the service lists for it.
    expect(result.cells.A5).toBe((await mids([trialSymbol], [DATE], trialToken)).get(`${trialSymbol}|${DATE}`));
    const visible = (await e2e.service("/Instruments", {}, trialToken)).instruments as JsonObject[];
    expect(visible.every((record) => String(record.symbol).startsWith("MB-"))).toBe(true);
    expect(region(result.cells, 0, 6, visible.length + 1, 1)).toEqual([...visible.map((record) => [record.symbol]), [null]]);
  });

  it("says which calculation, forecast, curve or field an existing instrument lacks", async () => {
    const withFields = await instrumentRecords(e2e, ["hasForwardCurves", "forecastTypeIds"]);
    const plain = withFields.find(
      (record) =>
        record.status === "Active" &&
        !(record.priceCalculationTypeIds as string[]).includes("WeeklyAverage") &&
        record.hasForwardCurves === false &&
        (record.forecastTypeIds as string[]).length === 0,
    );
    if (!plain) throw new Error("the sandbox has no instrument without weekly averages, curves and forecasts");
    const s = String(plain.symbol);
    const result = await e2e.evaluate({
      A1: `=PRICES.PRICE("${s}", "${DATE}", "mid", "WeeklyAverage")`,
      A2: `=PRICES.AVERAGE("${s}", "Weekly", "${DATE}")`,
      A3: `=PRICES.HISTORY("${s}", "2025-04-01", "${DATE}", , 0, , "WeeklyAverage")`,
      A4: `=PRICES.FORECAST("${s}")`,
      A5: `=PRICES.CURVE("${s}", "${DATE}")`,
      A6: `=PRICES.PRICE("${s}", "${DATE}", "assessmentPeriod")`,
    });
    // The service's own reasons, as listed in invalidInstruments.
    const reasons = async (path: string, query: Record<string, string>): Promise<string> => {
      const json = await e2e.service(path, { Symbols: s, ...query });
      const [listed] = (json.invalidInstruments ?? []) as JsonObject[];
      return text(listed?.message, "invalidInstruments[0].message");
    };
    const weeklyReason = await reasons("/Prices", { Dates: DATE, priceCalculationType: "WeeklyAverage" });
    expect(weeklyReason).toMatch(/WeeklyAverage/);
    const [latest] = prices(await e2e.service("/Prices", { Symbols: s }), s);
    const forecastReason = await reasons("/Prices/History", { FromDate: String(latest?.date), ToDate: "2030-01-01", forecastType: "F24M" });
    expect(forecastReason).toMatch(/F24M/);
    expect(result.cells.A1).toBe(`#N/A: '${s}': ${weeklyReason}`);
    expect(result.cells.A2).toBe(`#N/A: '${s}': ${weeklyReason}`);
    expect(result.cells.A3).toBe(`#N/A: '${s}': ${weeklyReason}`);
    expect(result.cells.A4).toBe(`#N/A: '${s}': ${forecastReason}`);
    expect(result.cells.A5).toBe(`#N/A: '${s}' has no forward curve on ${DATE}`);
    expect(result.cells.A6).toBe(`#N/A: assessmentPeriod is given only for averages: set calculation for '${s}'`);
  });

  it("says there is no assessment on or before a date before the instrument's first data", async () => {
    const [newest] = [...records].sort((x, y) => String(y.launchDate).localeCompare(String(x.launchDate)));
    if (!newest) throw new Error("no instrument");
    const s = String(newest.symbol);
    // The service's own first date for the symbol, then a day before it in the symbol's calendar.
    const json = await e2e.service("/Prices", { Symbols: s });
    const [block] = (json.instruments as JsonObject[]).filter((item) => item.symbol === s);
    const firstDay = text(block?.firstDate, "firstDate").slice(0, 10);
    const before = new Date(Date.parse(`${firstDay}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const early = new Date(Date.parse(`${firstDay}T00:00:00Z`) - 40 * 86_400_000).toISOString().slice(0, 10);
    const answered = await e2e.service("/Prices", { Symbols: s, Dates: before });
    expect(answered.instruments).toEqual([expect.objectContaining({ symbol: s, prices: [] })]);
    const result = await e2e.evaluate({
      A1: `=PRICES.MID("${s}", "${before}")`,
      A2: `=PRICES.PRICE("${s}", "${before}", "pricingRationale")`,
      A3: `=PRICES.HISTORY("${s}", "${early}", "${before}")`,
    });
    expect(result.cells.A1).toBe(`#N/A: no assessment for '${s}' on or before ${before}`);
    expect(result.cells.A2).toBe(`#N/A: no assessment for '${s}' on or before ${before}`);
    expect(result.cells.A3).toBe(`#N/A: no assessment for '${s}' from ${early} to ${before}`);
  });
});

describe("no service: #N/A that says why, never #BUSY!", () => {
  const book: Cells = {
    A1: `=PRICES.MID("MB-AL-0001", "${DATE}")`,
    A2: '=PRICES.HISTORY("MB-AL-0001", "2025-05-01", "2025-05-14")',
    A3: '=PRICES.INSTRUMENTS("aluminium")',
    A4: '=PRICES.REFERENCE("Currency", "USD")',
    A5: '=PRICES.AVERAGE("MB-AL-0001", "Monthly")',
  };

  it("asks to sign in from the Prices pane before the functions are configured", async () => {
    const result = await e2e.browser.page.evaluate(async (cells) => {
      const addin = (globalThis as unknown as { PricesAddin?: { reset(options: { recalculate: boolean }): Promise<void> } }).PricesAddin;
      const host = window.PricesHost;
      if (!addin || !host) throw new Error("the page has no PricesAddin or PricesHost");
      await addin.reset({ recalculate: false });
      return host.evaluate({ cells });
    }, book);
    expect(result.cells).toEqual(Object.fromEntries(Object.keys(book).map((at) => [at, "#N/A: sign in from the Prices pane"])));
    expect(result.stats.client).toBeUndefined();
  });

  it("asks to sign in again when the service refuses the token", async () => {
    const result = await e2e.evaluate(book, { token: "not-a-token" });
    expect(result.cells).toEqual(
      Object.fromEntries(Object.keys(book).map((at) => [at, "#N/A: the service rejected the sign-in even after a renewal (401): sign in again from the Prices pane"])),
    );
  });

  it("says the service is unreachable, with the cause, when nothing listens at the API URL", async () => {
    const port = await closedPort();
    const result = await e2e.evaluate(book, { apiUrl: `https://localhost:${port}/physical/v2` });
    expectSettled(result);
    for (const at of Object.keys(book)) {
      expect([at, result.cells[at]]).toEqual([at, expect.stringMatching(/^#N\/A: service unreachable: Request failed \(Failed to fetch\): GET \/(Prices|Instruments|References)\b/)]);
    }
    // The page's fetch was tried (and retried) against the closed port.
    expect(result.stats.requests).toBeGreaterThanOrEqual(Object.keys(book).length - 1);
  });

  it("names the timeout before the functions' deadline when the service accepts but never answers", async () => {
    const open = new Set<Socket>();
    const silent = createServer((socket) => {
      open.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => open.delete(socket));
    });
    await new Promise<void>((done) => silent.listen(0, "127.0.0.1", () => done()));
    const bound = silent.address();
    const port = typeof bound === "object" && bound !== null ? bound.port : 0;
    try {
      const result = await e2e.browser.page.evaluate(
        async ({ cells, baseUrl, token }) => {
          const host = window.PricesHost;
          if (!host) throw new Error("no PricesHost");
          // A deadline far below the client's own timeout: the client's budget (3/4 of it) ends first, with the cause.
          await host.configure({ baseUrl, token, deadlineMs: 1_500 });
          return host.evaluate({ cells });
        },
        { cells: book, baseUrl: `https://localhost:${port}/physical/v2`, token: e2e.token },
      );
      expectSettled(result);
      for (const at of Object.keys(book)) {
        expect([at, result.cells[at]]).toEqual([
          at,
          expect.stringMatching(/^#N\/A: service unreachable: Request failed \((timed out after \d+ ms|the key's time ran out while its request waited for a connection slot \(other requests held them all\))\): GET \/(Prices|Instruments|References)\b/),
        ]);
      }
    } finally {
      for (const socket of open) socket.destroy();
      await new Promise<void>((done) => silent.close(() => done()));
    }
  });
});
