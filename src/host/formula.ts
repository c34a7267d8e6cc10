/** The formulas the host runs: the shared grammar (src/formula); whole rows and columns read the sheet's used area. */
import { parseExpression, shapeParser, type Expression } from "../formula/parse";

export function parseHostFormula(formula: string): Expression {
  return parseExpression(formula);
}

/** `parseHostFormula` for the many formulas of one book: formulas of one shape are parsed once. */
export function hostFormulaParser(): (formula: string) => Expression {
  return shapeParser();
}
