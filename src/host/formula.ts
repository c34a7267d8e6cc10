/** The formulas the host runs: the shared grammar (src/formula) without whole rows or columns, whose every cell the engine would walk. */
import { parseFormula, type FormulaCall } from "../formula/parse";

export function parseHostFormula(formula: string): FormulaCall {
  return parseFormula(formula, { wholeRowsAndColumns: false });
}
