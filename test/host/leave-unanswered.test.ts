/**
 * An engine with `leaveUnanswered` leaves a formula whose custom call has no answer from the service about its cell
 * (the error value's `unanswered` mark) for Excel, whatever surrounds the call, and every formula reading it with
 * the price call's cell named; without it the error shows as in Excel. The service's answer about a cell (an
 * unmarked error) is a value either way.
 */
import { readBook } from "../../src/host/book";
import { WorkbookEngine } from "../../src/host/engine";
import { parseFunctionsMetadata } from "../../src/host/metadata";
import { CustomFunctionsError, createCustomFunctionsRuntime } from "../../src/host/runtime";

/**
 * PRICES.QUOTE(symbol): 7 for "OK", the service's answer "no such symbol" for "NONE", no answer at all for "DOWN";
 * PRICES.HISTORY(symbol): a column 1, 2, 3 for "OK", no answer otherwise; PRICES.NEVER(): a call that never settles.
 */
function engine(leaveUnanswered: boolean, timeoutMs?: number): WorkbookEngine {
  const runtime = createCustomFunctionsRuntime();
  runtime.global.associate("QUOTE", (symbol: unknown) => {
    if (symbol === "OK") return Promise.resolve(7);
    if (symbol === "NONE") return Promise.reject(new CustomFunctionsError("#N/A", "unknown or not permitted symbol 'NONE'"));
    return Promise.reject(Object.assign(new CustomFunctionsError("#N/A", "service unreachable: Request failed (Failed to fetch): GET /Prices"), { unanswered: "unreachable" }));
  });
  runtime.global.associate("NEVER", () => new Promise<number>(() => undefined));
  runtime.global.associate("HISTORY", (symbol: unknown) => {
    if (symbol === "OK") return Promise.resolve([[1], [2], [3]]);
    return Promise.reject(Object.assign(new CustomFunctionsError("#N/A", "service unreachable: Request failed (Failed to fetch): GET /Prices/History"), { unanswered: "unreachable" }));
  });
  const metadata = parseFunctionsMetadata({
    functions: [
      { id: "QUOTE", name: "QUOTE", parameters: [{ name: "symbol", type: "string" }], result: { type: "number" } },
      { id: "HISTORY", name: "HISTORY", parameters: [{ name: "symbol", type: "string" }], result: { type: "number", dimensionality: "matrix" } },
      { id: "NEVER", name: "NEVER", parameters: [], result: { type: "number" } },
    ],
  });
  return new WorkbookEngine({ runtime, metadata, namespace: "PRICES", leaveUnanswered, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
}

const BOOK = {
  A1: '=PRICES.QUOTE("OK")',
  A2: '=PRICES.QUOTE("NONE")',
  A3: '=PRICES.QUOTE("DOWN")',
  B3: "=A3*2",
  C3: "=B3+1",
  D3: '=IFERROR(PRICES.QUOTE("DOWN"),0)',
  E3: '=PRICES.QUOTE("DOWN")+A1',
};

async function evaluated(leaveUnanswered: boolean): Promise<WorkbookEngine> {
  const sheet = engine(leaveUnanswered);
  sheet.load(readBook({ cells: BOOK }));
  await sheet.evaluate();
  return sheet;
}

describe("a call with no answer about its cell", () => {
  it("leaves its formula and every formula reading it for Excel, naming the price call's cell", async () => {
    const sheet = await evaluated(true);
    const why = "service unreachable: Request failed (Failed to fetch): GET /Prices";
    expect(sheet.leftForExcel()).toEqual([
      { cell: "A3", formula: 'PRICES.QUOTE("DOWN")', why, unanswered: { kind: "unreachable" } },
      { cell: "B3", formula: "A3*2", why: "depends on A3 (left for Excel)", unanswered: { kind: "unreachable", from: "A3" } },
      { cell: "C3", formula: "B3+1", why: "depends on B3 (left for Excel)", unanswered: { kind: "unreachable", from: "A3" } },
      // IFERROR does not turn no answer into a 0 written as if it were the cell's value
      { cell: "D3", formula: 'IFERROR(PRICES.QUOTE("DOWN"),0)', why, unanswered: { kind: "unreachable" } },
      { cell: "E3", formula: 'PRICES.QUOTE("DOWN")+A1', why, unanswered: { kind: "unreachable" } },
    ]);
    // the answered price and the service's answer about a symbol are values
    expect(sheet.cells()).toMatchObject({ A1: 7, A2: "#N/A: unknown or not permitted symbol 'NONE'" });
  });

  it("shows as its error, as in Excel, when the engine does not leave it", async () => {
    const sheet = await evaluated(false);
    expect(sheet.leftForExcel()).toEqual([]);
    expect(sheet.cells()).toEqual({
      A1: 7,
      A2: "#N/A: unknown or not permitted symbol 'NONE'",
      A3: "#N/A: service unreachable: Request failed (Failed to fetch): GET /Prices",
      B3: "#N/A: service unreachable: Request failed (Failed to fetch): GET /Prices",
      C3: "#N/A: service unreachable: Request failed (Failed to fetch): GET /Prices",
      D3: 0,
      E3: "#N/A: service unreachable: Request failed (Failed to fetch): GET /Prices",
    });
  });

  it("is noted on its formula when the engine does not leave it, whatever the formula made of it", async () => {
    const sheet = engine(false);
    sheet.load(readBook({ cells: { ...BOOK, F3: '=IF(ISNA(PRICES.QUOTE("DOWN")),"n/a","ok")', G3: '=IFERROR(PRICES.QUOTE("NONE"),0)' } }));
    await sheet.evaluate();
    expect(sheet.cells()).toMatchObject({ D3: 0, F3: "n/a", G3: 0 });
    const why = "service unreachable: Request failed (Failed to fetch): GET /Prices";
    // the formulas that call: B3 and C3 only read A3's error; G3's is the service's answer about its symbol
    expect(sheet.unansweredCalls()).toEqual(["A3", "D3", "E3", "F3"].map((cell) => ({ cell, kind: "unreachable", why })));
  });
});

describe("a spill or array area left for want of an answer", () => {
  const why = "service unreachable: Request failed (Failed to fetch): GET /Prices/History";
  const left = (cell: string, formula: string): object => ({ cell, formula, why: "depends on A1 (left for Excel)", unanswered: { kind: "unreachable", from: "A1" } });

  it("leaves every formula reading a cell of its saved spill, not only its anchor (a file's reader drops the spill's saved cells)", async () => {
    const sheet = engine(true);
    // as a file's reader hands it over: the spill's saved cells B2:B3 gone from the cells, its saved rows kept
    sheet.load(readBook({ cells: { A1: '=PRICES.HISTORY("DOWN")', D1: "=B2*2", E1: "=AVERAGE(B2:B3)", F1: "=COUNT(C2:C3)", G1: "=A4+1" }, saved: { A1: [[0, "mid"], [45778, 101], [45779, 102]], D1: 202, E1: 101.5, F1: 0, G1: 1 } }));
    await sheet.evaluate();
    expect(sheet.leftForExcel()).toEqual([
      { cell: "A1", formula: 'PRICES.HISTORY("DOWN")', why, unanswered: { kind: "unreachable" } },
      left("D1", "B2*2"),
      left("E1", "AVERAGE(B2:B3)"),
    ]);
    // beside and below the saved area, a cell is read as it is
    expect(sheet.cells()).toMatchObject({ F1: 0, G1: 1 });
  });

  it("leaves every formula reading a cell of a legacy array formula's area", async () => {
    const sheet = engine(true);
    sheet.load(readBook({ cells: { A1: '=PRICES.HISTORY("DOWN")', C1: "=A2*2", C2: "=A4*2" }, arrays: { A1: "A1:A3" } }));
    await sheet.evaluate();
    expect(sheet.leftForExcel()).toEqual([{ cell: "A1", formula: 'PRICES.HISTORY("DOWN")', why, unanswered: { kind: "unreachable" } }, left("C1", "A2*2")]);
    expect(sheet.cells()).toMatchObject({ C2: 0 });
  });
});

describe("a call still unsettled at its deadline", () => {
  it("is no answer in time: its formula and its readers are left, kind 'timeout'", async () => {
    const sheet = engine(true, 20);
    sheet.load(readBook({ cells: { A1: "=PRICES.NEVER()", B1: "=A1*2", C1: "=IFERROR(PRICES.NEVER(),0)" } }));
    await sheet.evaluate();
    const why = "no result after 20 ms";
    expect(sheet.leftForExcel()).toEqual([
      { cell: "A1", formula: "PRICES.NEVER()", why, unanswered: { kind: "timeout" } },
      { cell: "B1", formula: "A1*2", why: "depends on A1 (left for Excel)", unanswered: { kind: "timeout", from: "A1" } },
      { cell: "C1", formula: "IFERROR(PRICES.NEVER(),0)", why, unanswered: { kind: "timeout" } },
    ]);
  });

  it("shows #BUSY! when the engine does not leave it, noted as no answer", async () => {
    const sheet = engine(false, 20);
    sheet.load(readBook({ cells: { A1: "=PRICES.NEVER()" } }));
    await sheet.evaluate();
    expect(sheet.cells()).toEqual({ A1: "#BUSY!: no result after 20 ms" });
    expect(sheet.unansweredCalls()).toEqual([{ cell: "A1", kind: "timeout", why: "no result after 20 ms" }]);
  });
});
