/**
 * Freeze and Unfreeze (src/taskpane/freeze.ts) through the Excel adapter (excel-freeze.ts) over the workbench's Excel
 * stand-in, with a grid whose formulas show fixed results (Excel itself is the one thing mocked).
 */
import { OtherSheets } from "../../src/workbench/other-sheets";
import { type RangeRef, formatCellAddress, parseCellAddress } from "../../src/formula/a1";
import type { PriceKey } from "../../src/prices/types";
import { excelFreezeWorkbook } from "../../src/taskpane/excel-freeze";
import { describeWithCalls, freeze, unfreeze } from "../../src/taskpane/freeze";
import { pricesCalls } from "../../src/taskpane/formula-calls";
import { type GridAccess, createExcelStub } from "../../src/workbench/excel-stub";

type Content = string | number | boolean;

/** Entries by address; a formula's result is looked up in `results` (anchor -> grid), spilling right and down. */
function fakeGrid(entries: Record<string, Content>, results: Record<string, Content[][]>, selection: RangeRef): GridAccess & { entries: Map<string, Content> } {
  const cells = new Map(Object.entries(entries));
  const spillOf = (row: number, col: number): { anchor: string; area: RangeRef } | undefined => {
    for (const [anchor, grid] of Object.entries(results)) {
      const at = parseCellAddress(anchor);
      const formula = cells.get(anchor);
      if (!at || typeof formula !== "string" || !formula.startsWith("=")) continue;
      const area = { top: at.row, left: at.col, bottom: at.row + grid.length - 1, right: at.col + (grid[0]?.length ?? 1) - 1 };
      if (row >= area.top && row <= area.bottom && col >= area.left && col <= area.right) return { anchor, area };
    }
    return undefined;
  };
  return {
    entries: cells,
    selection: () => selection,
    entry: (row, col) => cells.get(formatCellAddress({ row, col })) ?? "",
    value: (row, col) => {
      const address = formatCellAddress({ row, col });
      const spill = spillOf(row, col);
      if (spill) {
        const at = parseCellAddress(spill.anchor) ?? { row: 0, col: 0 };
        return results[spill.anchor]?.[row - at.row]?.[col - at.col] ?? "";
      }
      return cells.get(address) ?? "";
    },
    enter: (row, col, content) => {
      const address = formatCellAddress({ row, col });
      if (content === "") cells.delete(address);
      else cells.set(address, content);
    },
    enterAll: (entries) => {
      for (const { row, col, content } of entries) {
        const address = formatCellAddress({ row, col });
        if (content === "") cells.delete(address);
        else cells.set(address, content);
      }
    },
    usedRange: () => ({ top: 0, left: 0, bottom: 5, right: 5 }),
    spillParent: (row, col) => {
      const spill = spillOf(row, col);
      return spill ? parseCellAddress(spill.anchor) : undefined;
    },
    spillArea: (row, col) => {
      const spill = spillOf(row, col);
      const anchor = formatCellAddress({ row, col });
      return spill && spill.anchor === anchor && (spill.area.bottom > spill.area.top || spill.area.right > spill.area.left) ? spill.area : undefined;
    },
    onSelectionChanged: () => () => undefined,
    recalculate: async () => undefined,
    numberFormat: () => "General",
    setNumberFormats: () => undefined,
    sheets: new OtherSheets(),
  };
}

const ENTRIES: Record<string, Content> = {
  A1: "MB-AL-0004",
  B1: '=PRICES.MID(A1,"2024-03-01")',
  A3: '=PRICES.HISTORY(A1,"2024-03-01","2024-03-08","mid",0)',
  D1: "=B1*2",
};
const RESULTS: Record<string, Content[][]> = {
  B1: [[152.02]],
  A3: [[150.1], [151.2], [152.3]],
  D1: [[304.04]],
};

function setUp(selection: RangeRef = { top: 0, left: 0, bottom: 0, right: 0 }) {
  const grid = fakeGrid(ENTRIES, RESULTS, selection);
  const excel = createExcelStub(grid) as typeof Excel;
  const workbook = excelFreezeWorkbook(excel);
  const asked: PriceKey[] = [];
  // the pane reads each call's arguments from the sheet (A1 holds the symbol)
  const describe = describeWithCalls({
    calls: (formula) => pricesCalls(formula, async (address) => [[ENTRIES[address] ?? ""]], "2024-03-08"),
    client: {
      price: async (key) => {
        asked.push(key);
        return { date: "2024-03-01", assessmentDate: "2024-02-29T16:00:00.000+00:00", revision: 1, low: 1, mid: 152.02, high: 3 };
      },
      // the instrument's own currency and unit, which the rows name as a rich price carries them
      instrument: async () => ({ currencyId: "USD", unitOfMeasureId: "MT" }),
      // the history's request is in the lineage: its row says when it left and which endpoint served it
      lineage: (key) =>
        "fromDate" in key
          ? { key: "h", kind: "history" as const, fromCache: false, requestId: 3, askedAt: 1, request: { id: 3, endpoint: "/Prices/History", method: "GET" as const, params: {}, sentAt: Date.UTC(2024, 2, 8, 9), attempts: 1, retryDelaysMs: [], keys: 1 } }
          : undefined,
    },
    serviceUrl: "https://svc/physical/v2",
  });
  const provenance = (): Promise<unknown[][] | undefined> => workbook.readSheet("Prices provenance");
  return { grid, workbook, describe, asked, provenance };
}

describe("freeze and unfreeze", () => {
  it("freezes every PRICES formula of the sheet to its values, keeps other formulas, and writes the provenance sheet", async () => {
    const { grid, workbook, describe, provenance } = setUp();
    expect(await freeze(workbook, "sheet", describe)).toBe(2);
    expect(Object.fromEntries(grid.entries)).toEqual({ A1: "MB-AL-0004", B1: 152.02, A3: 150.1, A4: 151.2, A5: 152.3, D1: "=B1*2" });
    const table = await provenance();
    expect(table?.[0]).toEqual(["Sheet", "Address", "Formula", "Symbol", "Date asked", "Assessment date", "Assessed at", "Revision", "Carried", "Field", "Currency", "Unit", "Conversion", "Retrieved at", "Service URL", "Result range", "Error"]);
    expect(table?.slice(1)).toEqual([
      ["Sheet1", "B1", '=PRICES.MID(A1,"2024-03-01")', "MB-AL-0004", "2024-03-01", "2024-02-29", "2024-02-29T16:00:00.000+00:00", 1, true, "mid", "USD", "MT", "none", "", "https://svc/physical/v2", "B1", ""],
      ["Sheet1", "A3", '=PRICES.HISTORY(A1,"2024-03-01","2024-03-08","mid",0)', "MB-AL-0004", "2024-03-01..2024-03-08", "", "", "", "", "", "USD", "MT", "none", "2024-03-08T09:00:00.000Z", "https://svc/physical/v2/Prices/History", "A3:A5", ""],
    ]);
  });

  it("unfreezes every formula the provenance sheet names, clears what their results covered, and removes the sheet", async () => {
    const { grid, workbook, describe, provenance } = setUp();
    await freeze(workbook, "sheet", describe);
    expect(await unfreeze(workbook, "sheet")).toBe(2);
    expect(Object.fromEntries(grid.entries)).toEqual(ENTRIES);
    expect(await provenance()).toBeUndefined();
  });

  it("freezes and unfreezes only the selection, keeping the rows of the rest", async () => {
    const { grid, workbook, describe, provenance } = setUp({ top: 2, left: 0, bottom: 3, right: 0 });
    expect(await freeze(workbook, "selection", describe)).toBe(1);
    expect(grid.entries.get("B1")).toBe(ENTRIES.B1);
    expect(grid.entries.get("A3")).toBe(150.1);
    expect(await freeze(workbook, "workbook", describe)).toBe(1);
    expect((await provenance())?.length).toBe(3);
    expect(await unfreeze(workbook, "selection")).toBe(1);
    expect(grid.entries.get("A3")).toBe(ENTRIES.A3);
    expect(grid.entries.get("B1")).toBe(152.02);
    expect((await provenance())?.slice(1).map((row) => row[1])).toEqual(["B1"]);
  });

  it("says there is nothing to do without PRICES formulas or a provenance sheet", async () => {
    const { workbook, describe } = setUp({ top: 0, left: 3, bottom: 0, right: 3 });
    expect(await freeze(workbook, "selection", describe)).toBe(0);
    expect(await unfreeze(workbook, "workbook")).toBe(0);
  });
});
