/** The formulas the host runs: the shared grammar (src/formula); whole rows and columns read the sheet's used area. */
import { parseExpression, type Expression } from "../formula/parse";

export function parseHostFormula(formula: string): Expression {
  return parseExpression(formula);
}
