/**
 * Excel's operators over evaluated values: arithmetic, comparison at 15 significant digits and `&`, broadcast cell by
 * cell over arrays (a single value, a row or a column stretched, #N/A past a smaller array's edge), and `@`.
 */
import type { CellPosition } from "../formula/a1";
import type { DateSystem } from "../formula/excel-dates";
import { compare, compareWith, toBoolean, toNumber, toText } from "./coerce";
import { type Value, arrayOf, isArray } from "./value-array";
import { type CellError, type CellValue, cellError, isCellError } from "./values";
import { power } from "./worksheet-math";

/** A unary operator over a value, cell by cell; `@` is implicit intersection. */
export function unaryOf(operator: string, value: Value, at: CellPosition, system: DateSystem): Value {
  if (operator === "@") return intersect(value, at);
  if (!isArray(value)) return unary(operator, value, system);
  return mapValues([value], ([cell]) => unary(operator, cell ?? null, system));
}

/** A binary operator over two values, broadcast over arrays; two single values need no broadcasting. */
export function binaryOf(operator: string, left: Value, right: Value, system: DateSystem): Value {
  if (!isArray(left) && !isArray(right)) return binary(operator, left, right, system);
  return mapValues([left, right], ([a, b]) => binary(operator, a ?? null, b ?? null, system));
}

/** Excel's `@`: one cell of a range (the one in the formula's row or column), the first of an array, or a value as it is. */
export function intersect(value: Value, at: CellPosition): Value {
  if (!isArray(value)) return value;
  const range = value.range;
  const rows = value.rows;
  if (rows.length === 1 && rows[0]?.length === 1) return rows[0][0] ?? null;
  if (!range) return rows[0]?.[0] ?? null;
  const oneColumn = range.left === range.right;
  const oneRow = range.top === range.bottom;
  if (oneColumn && at.row >= range.top && at.row <= range.bottom) return rows[at.row - range.top]?.[0] ?? null;
  if (oneRow && at.col >= range.left && at.col <= range.right) return rows[0]?.[at.col - range.left] ?? null;
  return cellError("#VALUE!", "the range does not meet the formula's row or column");
}

export function chooseBranch(condition: CellValue, whenTrue: CellValue, whenFalse: CellValue): CellValue {
  const truth = toBoolean(condition);
  if (isCellError(truth)) return truth;
  return truth ? whenTrue : whenFalse;
}

/**
 * Applies `fn` cell by cell, broadcasting a single value, a row or a column as Excel does; cells past a smaller
 * array's edge are #N/A (or, with `seesOutside`, given to `fn` as undefined). One cell in, one value out: a
 * single-cell reference in arithmetic is a value.
 */
export function mapValues(values: readonly Value[], fn: (cells: readonly (CellValue | undefined)[]) => CellValue, seesOutside = false): Value {
  if (values.every(isSingle)) return fn(values.map((value) => (isArray(value) ? (value.rows[0]?.[0] ?? null) : value)));
  const grids = values.map((value) => (isArray(value) ? value.rows : [[value]]));
  const height = Math.max(...grids.map((grid) => grid.length));
  const width = Math.max(...grids.map((grid) => grid[0]?.length ?? 1));
  const rows: CellValue[][] = [];
  for (let r = 0; r < height; r += 1) {
    const row: CellValue[] = [];
    for (let c = 0; c < width; c += 1) {
      const cells = grids.map((grid) => {
        const gr = grid.length === 1 ? 0 : r;
        const gc = (grid[0]?.length ?? 1) === 1 ? 0 : c;
        return grid[gr]?.[gc];
      });
      const outside = cells.some((cell) => cell === undefined);
      row.push(outside && !seesOutside ? cellError("#N/A") : fn(cells));
    }
    rows.push(row);
  }
  return arrayOf(rows);
}


function isSingle(value: Value): boolean {
  return !isArray(value) || (value.rows.length === 1 && value.rows[0]?.length === 1);
}

function unary(operator: string, value: CellValue, system: DateSystem): CellValue {
  if (operator === "+") return value;
  const number = toNumber(value, system);
  if (isCellError(number)) return number;
  if (operator === "-") return -number;
  if (operator === "%") return number / 100;
  return cellError("#VALUE!", `unknown operator ${operator}`);
}

function binary(operator: string, left: CellValue, right: CellValue, system: DateSystem): CellValue {
  if (isCellError(left)) return left;
  if (isCellError(right)) return right;
  if (operator === "&") return `${toText(left) as string}${toText(right) as string}`;
  if (["=", "<>", "<", ">", "<=", ">="].includes(operator)) return compareWith(operator, compare(left, right));
  const a = toNumber(left, system);
  if (isCellError(a)) return a;
  const b = toNumber(right, system);
  if (isCellError(b)) return b;
  switch (operator) {
    case "+":
      return finite(a + b);
    case "-":
      return finite(a - b);
    case "*":
      return finite(a * b);
    case "/":
      return b === 0 ? cellError("#DIV/0!") : finite(a / b);
    case "^":
      return power(a, b);
    default:
      return cellError("#VALUE!", `unknown operator ${operator}`);
  }
}

function finite(value: number): number | CellError {
  return Number.isFinite(value) ? value : cellError("#NUM!");
}

