/** The workbench's pure parts in Node: entries, spill read-back, chart data and SVG, the demo layout, the Excel stand-in. */
import { formatCellAddress, parseCellAddress, type RangeRef } from "../../src/host/addresses";
import { cellError, type CellValue } from "../../src/host/values";
import { EntrySheet, readEntry } from "../../src/workbench/cells";
import { historyChartData, lineChartSvg, niceTicks } from "../../src/workbench/chart";
import { buildDemoSheet } from "../../src/workbench/demo";
import { createExcelStub, type GridAccess } from "../../src/workbench/excel-stub";
import { displayText, serialText } from "../../src/workbench/format";
import { blockedRange, findSpills } from "../../src/workbench/spills";

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

/** A sheet from a picture: entries and values by address. */
function reader(entries: string[], values: Record<string, CellValue>) {
  const at = (row: number, col: number): string => formatCellAddress({ row, col });
  return {
    anchors: entries.map((address) => parseCellAddress(address)!).filter(Boolean),
    hasEntry: (row: number, col: number) => entries.includes(at(row, col)),
    value: (row: number, col: number) => values[at(row, col)] ?? null,
  };
}

describe("spills", () => {
  it("reads each anchor's rectangle back from the values, stopping at another spill that started higher", () => {
    const spills = findSpills(
      reader(["A1", "C1"], {
        A1: 1, B1: 2, A2: 3, B2: 4,
        C1: 5, C2: 6, C3: 7,
      }),
    );
    const area = (address: string): RangeRef | undefined => spills.find((s) => formatCellAddress(s.anchor) === address)?.area;
    expect(area("A1")).toEqual({ top: 0, left: 0, bottom: 1, right: 1 });
    expect(area("C1")).toEqual({ top: 0, left: 2, bottom: 2, right: 2 });
  });

  it("keeps a #SPILL! anchor to itself and remembers the range it needed", () => {
    const value = cellError("#SPILL!", "spill range B2:C9 isn't blank (C4)");
    expect(blockedRange(value)).toEqual({ top: 1, left: 1, bottom: 8, right: 2 });
    const [spill] = findSpills(reader(["B2"], { B2: value, B3: "literal below is an entry" }));
    expect(spill?.area).toEqual({ top: 1, left: 1, bottom: 1, right: 1 });
    expect(spill?.blocked).toEqual({ top: 1, left: 1, bottom: 8, right: 2 });
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
      usedRange: () => undefined,
      recalculate: async () => void (state.recalcs += 1),
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
