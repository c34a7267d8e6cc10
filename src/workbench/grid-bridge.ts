/** The pane's Excel: this grid, as the Excel stand-in of the pane's iframe reads and writes it (window.WorkbenchGrid). */
import type { PricesAddin } from "../functions/hook";
import { formatCellAddress, type CellPosition, type RangeRef } from "../formula/a1";
import { isCellError } from "../host/values";
import type { Calculator } from "./calculator";
import type { EntrySheet } from "./cells";
import type { GridAccess } from "./excel-stub";
import type { GridView } from "./grid-view";
import type { OtherSheets } from "./other-sheets";

export interface GridBridgeParts {
  readonly sheet: EntrySheet;
  readonly calculator: Calculator;
  readonly addin: PricesAddin;
  readonly otherSheets: OtherSheets;
  readonly selectionListeners: Set<() => void>;
  readonly view: () => GridView | undefined;
  /** Enters what was typed (remembered for a reload) and recalculates what it touches; the refusal, if any. */
  readonly enter: (at: CellPosition, typed: string) => string | undefined;
  /** Recalculates what the edits touch. */
  readonly update: () => Promise<void>;
  readonly recalculate: () => Promise<void>;
  /** Redraws once `done` resolves. */
  readonly redrawn: (done: Promise<void>) => Promise<void>;
}

export function gridBridge(parts: GridBridgeParts): GridAccess {
  const { sheet, calculator, view } = parts;
  const cellValue = (row: number, col: number): string | number | boolean => {
    const value = calculator.value(row, col);
    if (value === null) return "";
    return isCellError(value) ? value.code : value;
  };
  /**
   * Excel's `range.calculate()`: the range's formulas run again (taken out, then put back: the engine runs what an
   * edit touches), and what reads them; the rest of the sheet keeps its values and asks nothing.
   */
  const recalculateRange = async (area: RangeRef): Promise<void> => {
    const book = sheet.book();
    const formulas = new Set<string>();
    for (let row = area.top; row <= area.bottom; row += 1) {
      for (let col = area.left; col <= area.right; col += 1) if (sheet.isFormula({ row, col })) formulas.add(formatCellAddress({ row, col }));
    }
    const without = Object.fromEntries(Object.entries(book.cells).filter(([address]) => !formulas.has(address)));
    await calculator.update({ cells: without });
    await parts.redrawn(calculator.update(book));
  };
  return {
    spillParent: (row, col) => {
      const spill = view()?.spillAt(row, col);
      return spill && !spill.blocked && (spill.area.bottom > spill.area.top || spill.area.right > spill.area.left) ? { row: spill.anchor.row, col: spill.anchor.col } : undefined;
    },
    spillArea: (row, col) => {
      const spill = view()?.spillAt(row, col);
      const spilled = spill && !spill.blocked && spill.anchor.row === row && spill.anchor.col === col;
      return spilled && (spill.area.bottom > spill.area.top || spill.area.right > spill.area.left) ? spill.area : undefined;
    },
    onSelectionChanged: (listener) => {
      parts.selectionListeners.add(listener);
      return () => parts.selectionListeners.delete(listener);
    },
    selection: () => view()?.currentSelection().selection ?? { top: 0, left: 0, bottom: 0, right: 0 },
    entry: (row, col) => sheet.get({ row, col }) ?? "",
    numberFormat: (row, col) => view()?.numberFormatAt(row, col) ?? "General",
    setNumberFormats: (cells) => view()?.setNumberFormats(cells),
    value: cellValue,
    enter: (row, col, content) => {
      const typed = typeof content === "string" ? content : String(content);
      const refusal = parts.enter({ row, col }, typed);
      if (refusal !== undefined) throw new Error(`InvalidArgument: ${refusal}`);
      view()?.render();
    },
    enterAll: (cells) => {
      // one recalculation and one redraw for a whole range (Freeze writes hundreds of cells at once)
      for (const { row, col, content } of cells) {
        const result = sheet.enter({ row, col }, typeof content === "string" ? content : String(content));
        if (!result.ok) throw new Error(`InvalidArgument: ${result.message}`);
      }
      void parts.update();
      view()?.render();
    },
    usedRange: () => usedRange(sheet, view()),
    recalculate: parts.recalculate,
    recalculateRange,
    dataTypes: () => parts.addin.dataTypes,
    sheets: parts.otherSheets,
  };
}

/** The entries and the spills around them. */
function usedRange(sheet: EntrySheet, view: GridView | undefined): RangeRef | undefined {
  const spills = view?.spillList() ?? [];
  const cells = sheet.positions();
  if (cells.length === 0) return undefined;
  const range = { top: Infinity, left: Infinity, bottom: 0, right: 0 };
  const grow = (r: RangeRef): void => {
    range.top = Math.min(range.top, r.top);
    range.left = Math.min(range.left, r.left);
    range.bottom = Math.max(range.bottom, r.bottom);
    range.right = Math.max(range.right, r.right);
  };
  for (const cell of cells) grow({ top: cell.row, left: cell.col, bottom: cell.row, right: cell.col });
  for (const spill of spills) grow(spill.area);
  return range;
}
