/** The formulas the host runs: the shared grammar (src/formula) without whole rows or columns, whose every cell the engine would walk. */
import { parseExpression, type Expression } from "../formula/parse";

export function parseHostFormula(formula: string): Expression {
  return parseExpression(formula, { wholeRowsAndColumns: false });
}
