/** The workbench's pure parts in Node: entries, spill read-back, chart data and SVG, the demo layout, the Excel stand-in. */
import { OtherSheets } from "../../src/workbench/other-sheets";
import { formatCellAddress, parseCellAddress } from "../../src/formula/a1";
import { cellError, type CellValue } from "../../src/host/values";
import { EntrySheet, readEntry } from "../../src/workbench/cells";
import { historyChartData, lineChartSvg, niceTicks } from "../../src/workbench/chart";
import { buildDemoSheet } from "../../src/workbench/demo";
import { createExcelStub, type GridAccess } from "../../src/workbench/excel-stub";
import { displayText, formulaShowsDates, serialText } from "../../src/workbench/format";
import { sameSpill, SpillIndex } from "../../src/workbench/spills";
import { fixtureHost } from "../host/harness";

describe("entries", () => {
  it("reads numbers, booleans, text, quoted text and formulas as Excel does", () => {
    expect(readEntry("12.5")).toEqual({ ok: true, content: 12.5 });
    expect(readEntry("true")).toEqual({ ok: true, content: true });
    expect(readEntry("MB-AL-0004")).toEqual({ ok: true, content: "MB-AL-0004" });
    expect(readEntry("'42")).toEqual({ ok: true, content: "'42" });
    expect(readEntry("  ")).toEqual({ ok: true, content: undefined });
    expect(readEntry('=PRICES.MID("X")')).toEqual({ ok: true, content: '=PRICES.MID("X")' });
  });

  it("refuses a broken formula and leaves the sheet unchanged", () => {
    const sheet = new EntrySheet({ A1: 1 });
    const result = sheet.enter({ row: 0, col: 0 }, "=PRICES.MID(");
    expect(result.ok).toBe(false);
    expect(sheet.book()).toEqual({ cells: { A1: 1 } });
  });
});

describe("spills", () => {
  it("indexes the engine's own placements: each cell finds the result that covers it, #SPILL! keeps the area it needed", async () => {
    const host = fixtureHost();
    await host.evaluate({ A1: "=PRICES.GRID(2,2)", C1: "=PRICES.GRID(3,1)", B5: "=PRICES.GRID(2,2)", C6: "x", E1: "=PRICES.ADD(1,1)" });
    const index = new SpillIndex(host.engine.spills());
    const anchorOf = (address: string): string | undefined => {
      const at = parseCellAddress(address)!;
      const spill = index.at(at.row, at.col);
      return spill ? formatCellAddress(spill.anchor) : undefined;
    };
    expect([anchorOf("A1"), anchorOf("B2"), anchorOf("C1"), anchorOf("C3"), anchorOf("E1"), anchorOf("D1"), anchorOf("C6")]).toEqual(["A1", "A1", "C1", "C1", "E1", undefined, undefined]);
    expect(index.at(0, 0)?.area).toEqual({ top: 0, left: 0, bottom: 1, right: 1 });
    expect(index.at(4, 1)?.area).toEqual({ top: 4, left: 1, bottom: 4, right: 1 });
    expect(index.at(4, 1)?.blocked).toEqual({ top: 4, left: 1, bottom: 5, right: 2 });
    expect(index.extent()).toEqual({ bottom: 5, right: 4 });
  });

  it("tells placements that draw alike from ones that moved", () => {
    const a = { anchor: { row: 0, col: 0 }, area: { top: 0, left: 0, bottom: 2, right: 1 } };
    expect(sameSpill(a, { ...a, area: { ...a.area } })).toBe(true);
    expect(sameSpill(a, { ...a, area: { ...a.area, bottom: 3 } })).toBe(false);
    expect(sameSpill(a, { ...a, blocked: a.area })).toBe(false);
    expect(sameSpill(undefined, a)).toBe(false);
  });
});

describe("display", () => {
  it("shows serials as dates in date columns and numbers in General format", () => {
    expect(serialText(45292)).toBe("2024-01-01");
    expect(serialText(45292.5)).toBe("2024-01-01 12:00");
    expect(displayText(45292, true)).toBe("2024-01-01");
    expect(displayText(1 / 3)).toBe("0.3333333333");
    expect(displayText(cellError("#N/A", "why"))).toBe("#N/A");
    expect(displayText(false)).toBe("FALSE");
  });
});

describe("a date-time serial", () => {
  // Excel rounds to the millisecond, then cuts to the minute it shows; a carry crosses midnight into the next day.
  it.each([
    [45352.99999, "2024-03-01 23:59"],
    [45351.99999, "2024-02-29 23:59"],
    [45352.999999994, "2024-03-01 23:59"],
    [45352.999999995, "2024-03-02"],
    [45292 + 59.999 / 1440, "2024-01-01 00:59"],
    [45292 + 59.9999999 / 1440, "2024-01-01 01:00"],
    [45292 + 0.4999 / 1440, "2024-01-01"],
    [45292 + 1 / 1440, "2024-01-01 00:01"],
    [45292.5, "2024-01-01 12:00"],
  ])("shows %d as %s", (serial, shown) => {
    expect(serialText(serial)).toBe(shown);
  });
});

describe("dates by what a formula asks", () => {
  it("shows PRICE's date fields and INSTRUMENT's launchDate as dates, unless dateFormat asks for text", () => {
    expect(formulaShowsDates('=PRICES.PRICE("MB-AL-0004",,"date")')).toBe(true);
    expect(formulaShowsDates('=PRICES.PRICE(A1:A3,"2024-03-01","assessmentDate")')).toBe(true);
    expect(formulaShowsDates('=PRICES.INSTRUMENT("MB-AL-0004","launchDate")')).toBe(true);
    expect(formulaShowsDates('=PRICES.INSTRUMENT("MB-AL-0004","launchDate","text")')).toBe(false);
    expect(formulaShowsDates('=PRICES.PRICE("MB-AL-0004",,"mid")')).toBe(false);
    expect(formulaShowsDates('=PRICES.MID("MB-AL-0004")')).toBe(false);
    expect(formulaShowsDates("=not a formula(")).toBe(false);
    // as Excel formats TODAY() and DATE() and a number of days from them
    expect(formulaShowsDates("=TODAY()")).toBe(true);
    expect(formulaShowsDates("=TODAY()-1")).toBe(true);
    expect(formulaShowsDates("=7+DATE(2024,3,1)")).toBe(true);
    expect(formulaShowsDates("=TODAY()-A1")).toBe(false);
    expect(formulaShowsDates("=TODAY()-DATE(2024,1,1)")).toBe(false);
    expect(formulaShowsDates('=PRICES.MID("MB-AL-0004", TODAY()-1)')).toBe(false);
  });
});

describe("chart", () => {
  const grid: CellValue[][] = [
    ["date", "low", "mid"],
    [45293, 9, 10],
    [45292, 8, 12],
    [45294, 7, cellError("#N/A")],
  ];

  it("takes the header row, the date column and one series per price column, in date order", () => {
    const data = historyChartData(grid, "t");
    expect(data?.series.map((s) => s.name)).toEqual(["low", "mid"]);
    expect(data?.series[0]?.points).toEqual([{ x: 45292, y: 8 }, { x: 45293, y: 9 }, { x: 45294, y: 7 }]);
    expect(data?.series[1]?.points).toEqual([{ x: 45292, y: 12 }, { x: 45293, y: 10 }]);
  });

  it("draws only the price columns: an assessmentDate or revision column does not flatten the prices", () => {
    const wide: CellValue[][] = [
      ["date", "mid", "assessmentDate", "revision", "midChangeSincePrevious"],
      [45292, 2300, 45292.7, 0, 5],
      [45293, 2310, 45293.7, 1, 10],
    ];
    expect(historyChartData(wide, "t")?.series.map((s) => s.name)).toEqual(["mid"]);
    expect(historyChartData([["date", "assessmentDate"], [45292, 45292.7], [45293, 45293.7]], "t")).toBeUndefined();
    // no header row: no names to go by, every numeric column but the dates
    expect(historyChartData([[45292, 1, 2], [45293, 3, 4]], "t")?.series).toHaveLength(2);
  });

  it("draws one path per series and escapes text", () => {
    const svg = lineChartSvg({ title: "<a&b>", series: [{ name: "mid", points: [{ x: 45292, y: 1 }, { x: 45293, y: 2 }] }] });
    expect(svg.match(/<path /g)).toHaveLength(1);
    expect(svg).toContain("&#60;a&#38;b&#62;");
    expect(svg).not.toContain("<a&b>");
  });

  it("picks round ticks", () => {
    expect(niceTicks(0, 10)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(niceTicks(12, 58)).toEqual([20, 30, 40, 50]);
  });

  it("has nothing to draw without numbers", () => {
    expect(historyChartData([["date", "mid"]], "t")).toBeUndefined();
  });
});

describe("demo sheet", () => {
  const instruments = [
    { symbol: "A-1", status: "Active", launchDate: "2010-01-01", hasForwardCurves: false, forecastTypeIds: [] },
    { symbol: "A-2", status: "Active", launchDate: "2010-01-01", hasForwardCurves: true, forecastTypeIds: [] },
    { symbol: "A-3", status: "Inactive", launchDate: "2010-01-01" },
    { symbol: "A-4", status: "Active", launchDate: "2010-01-01", forecastTypeIds: ["F24M"] },
    { symbol: "A-5", status: "Active", launchDate: "2010-01-01" },
    { symbol: "A-6", status: "Active", launchDate: "2010-01-01" },
    { symbol: "A-7", status: "Active", launchDate: "2025-06-01" },
  ];

  it("picks active instruments with a year of data, one with curves and one with a forecast", () => {
    const demo = buildDemoSheet(instruments, "2025-06-30");
    expect(demo.symbols).toEqual(["A-1", "A-2", "A-4", "A-5", "A-6"]);
    expect(demo.cells["R2"]).toBe("A-2");
    expect(demo.cells["X2"]).toBe("A-4");
    expect(demo.cells["B14"]).toBe('=PRICES.CURVE("A-1")');
    expect(demo.fromDate).toBe("2024-06-30");
    expect([demo.cells["C3"], demo.cells["F3"]]).toEqual(["2025-02-01", "2025-05-01"]);
  });

  it("puts the issue's example symbols first when the data set has them, and does without those it lacks", () => {
    const withExamples = [
      ...instruments,
      { symbol: "FP-PLP-0034", status: "Active", launchDate: "2010-01-01" },
      { symbol: "MB-AL-0004", status: "Active", launchDate: "2010-01-01", hasForwardCurves: true },
    ];
    const demo = buildDemoSheet(withExamples, "2025-06-30");
    expect(demo.symbols).toEqual(["MB-AL-0004", "FP-PLP-0034", "A-1", "A-2", "A-4"]);
    expect(demo.cells["A4"]).toBe("MB-AL-0004");
    expect(demo.curveSymbol).toBe("MB-AL-0004");
  });

  it("holds only formulas the host accepts", () => {
    const sheet = new EntrySheet();
    for (const [address, content] of Object.entries(buildDemoSheet(instruments, "2025-06-30").cells)) {
      if (typeof content === "string" && content.startsWith("=")) expect({ address, ok: sheet.enter(parseCellAddress(address)!, content).ok }).toEqual({ address, ok: true });
    }
  });
});

describe("the pane's Excel stand-in", () => {
  function grid(): GridAccess & { entered: [number, number, unknown][]; recalcs: number } {
    const state = { entered: [] as [number, number, unknown][], recalcs: 0 };
    return Object.assign(state, {
      selection: () => ({ top: 1, left: 1, bottom: 2, right: 2 }),
      entry: (row: number, col: number) => (row === 1 && col === 1 ? "=PRICES.MID(A1)" : ""),
      value: (row: number, col: number) => (row === 1 && col === 1 ? 5 : ""),
      enter: (row: number, col: number, content: string | number | boolean) => void state.entered.push([row, col, content]),
      enterAll: (cells: readonly { row: number; col: number; content: string | number | boolean }[]) => {
        for (const cell of cells) state.entered.push([cell.row, cell.col, cell.content]);
      },
      usedRange: () => undefined,
      spillParent: () => undefined,
      spillArea: () => undefined,
      onSelectionChanged: () => () => undefined,
      recalculate: async () => void (state.recalcs += 1),
      numberFormat: () => "General",
      setNumberFormats: () => undefined,
      sheets: new OtherSheets(),
    });
  }

  it("reads the selection, inserts at its top-left cell and recalculates on sync", async () => {
    const access = grid();
    const excel = createExcelStub(access) as typeof Excel;
    const seen = await excel.run(async (context) => {
      const range = context.workbook.getSelectedRange();
      range.load(["address", "values", "formulas"]);
      const cell = range.getCell(0, 0);
      cell.formulas = [['=PRICES.MID("X")']];
      context.workbook.application.calculate(excel.CalculationType.full);
      await context.sync();
      return { address: range.address, values: range.values, formulas: range.formulas, cell: cell.address };
    });
    expect(seen).toEqual({ address: "Sheet1!B2:C3", values: [[5, ""], ["", ""]], formulas: [["=PRICES.MID(A1)", ""], ["", ""]], cell: "Sheet1!B2" });
    expect(access.entered).toEqual([[1, 1, '=PRICES.MID("X")']]);
    expect(access.recalcs).toBe(1);
  });

  it("answers a null used range for an empty sheet", async () => {
    const excel = createExcelStub(grid()) as typeof Excel;
    const isNull = await excel.run(async (context) => {
      const used = context.workbook.worksheets.getActiveWorksheet().getUsedRangeOrNullObject();
      used.load("formulas");
      await context.sync();
      return used.isNullObject;
    });
    expect(isNull).toBe(true);
  });
});
