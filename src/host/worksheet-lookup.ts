/**
 * Criteria and lookups as Excel reads them: `COUNTIF(A:A, "ab*")` with wildcards (`*`, `?`, `~` to escape), `">=5"`,
 * `"<>"`, dates as text; VLOOKUP, HLOOKUP, MATCH (exact with wildcards, or the binary search of a sorted range),
 * INDEX and XLOOKUP.
 */
import { LeftForExcelSignal } from "./left-for-excel";
import type { DateSystem } from "../formula/excel-dates";
import { compare, compareWith, significant, textToNumber, toNumber } from "./coerce";
import { type Arg, type FunctionSpec, type WorksheetEnv, asArray, cellsOf, num, scalarOf, spec } from "./worksheet-spec";
import { type Value, arrayOf, isArray, toGrid } from "./value-array";
import { type CellValue, cellError, isCellError, isErrorText } from "./values";

/** `*`, `?` and `~` of Excel's patterns as a case-insensitive whole-text expression. */
export function wildcardPattern(pattern: string): RegExp {
  let source = "";
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] ?? "";
    const next = pattern[index + 1];
    if (char === "~" && (next === "*" || next === "?" || next === "~")) {
      source += `\\${next}`;
      index += 1;
    } else if (char === "*") source += "[\\s\\S]*";
    else if (char === "?") source += "[\\s\\S]";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "i");
}

/** One criterion of COUNTIF and its family, as a test of a cell. */
export function criterion(value: CellValue, system: DateSystem): (cell: CellValue) => boolean {
  if (typeof value === "number") return (cell) => typeof cell === "number" ? significant(cell) === significant(value) : typeof cell === "string" && textToNumber(cell, system) === value;
  if (typeof value === "boolean") return (cell) => cell === value;
  if (value === null) return (cell) => cell === 0;
  if (isCellError(value)) return (cell) => isCellError(cell) && cell.code === value.code;
  const match = /^(<=|>=|<>|<|>|=)?([\s\S]*)$/.exec(value);
  const operator = match?.[1] ?? "=";
  const operand = match?.[2] ?? "";
  const number = textToNumber(operand, system);
  const truth = /^(true|false)$/i.test(operand) ? operand.toLowerCase() === "true" : undefined;
  if (operand === "") {
    // "" counts empty cells and empty text, "=" empty cells only, "<>" every cell not empty ("" and errors too)
    if (match?.[1] === undefined) return (cell) => cell === null || cell === "";
    if (operator === "=") return (cell) => cell === null;
    if (operator === "<>") return (cell) => cell !== null;
    return () => false;
  }
  // "#N/A" meets the error #N/A
  const code = operand.toUpperCase();
  if (isErrorText(code) && (operator === "=" || operator === "<>")) return (cell) => (isCellError(cell) && cell.code === code) === (operator === "=");
  const test = (order: number): boolean => compareWith(operator, order);
  if (number !== undefined) {
    return (cell) => {
      // "=5" also counts the text "5"; "<>5" leaves out only the number (Excel's COUNTIF: 6 of 23, "23", TRUE, 1, -23, "hey", FALSE)
      const cellNumber = typeof cell === "number" ? cell : operator === "=" && typeof cell === "string" ? textToNumber(cell, system) : undefined;
      if (cellNumber === undefined) return operator === "<>";
      return test(significant(cellNumber) - significant(number));
    };
  }
  if (truth !== undefined) return (cell) => (typeof cell === "boolean" ? test(Number(cell) - Number(truth)) : operator === "<>");
  if (operator === "=" || operator === "<>") {
    const pattern = wildcardPattern(operand);
    return (cell) => {
      const matches = typeof cell === "string" && pattern.test(cell);
      return operator === "=" ? matches : !matches;
    };
  }
  return (cell) => typeof cell === "string" && test(compare(cell, operand));
}

/** The cells of `range` whose partner cells meet every criterion: pairs of (range, criterion). */
function matching(pairs: readonly [Arg, Arg][], system: DateSystem): boolean[] | undefined {
  const [first] = pairs;
  if (!first) return undefined;
  const size = cellsOf(asArray(first[0])).length;
  const kept = new Array<boolean>(size).fill(true);
  for (const [range, wanted] of pairs) {
    const cells = cellsOf(asArray(range));
    if (cells.length !== size) return undefined;
    const test = criterion(scalarOf(wanted), system);
    cells.forEach((cell, index) => {
      if (!test(cell)) kept[index] = false;
    });
  }
  return kept;
}

/** A sum range read from its top-left cell with the criteria range's shape (Excel's SUMIF resizing). */
function sameShape(target: Arg, shape: Arg): CellValue[] {
  const rows = asArray(shape).rows;
  const source = asArray(target).rows;
  return rows.flatMap((row, r) => row.map((_, c) => source[r]?.[c] ?? null));
}

type Reduce = (values: number[]) => CellValue;

function conditional(reduce: Reduce, layout: "countif" | "sumif" | "ifs" | "countifs"): FunctionSpec {
  return spec(
    // criteria stay whole ("v"): the pairs repeat, and a criterion is read as one value
    layout === "sumif" || layout === "ifs" ? "vvv" : "vv",
    (args, env) => {
      // an array of criteria gives one answer per criterion (SUMIF(A:A, {"x";"y"}, B:B) spills two sums)
      const criteria = args.map((_, index) => index).filter((index) => (layout === "ifs" ? index >= 2 && index % 2 === 0 : index % 2 === 1));
      const lifted = criteria.map((index) => args[index]).find((arg) => isArray(arg) && cellsOf(arg).length > 1);
      if (lifted === undefined || !isArray(lifted)) return once(args, env);
      return arrayOf(
        lifted.rows.map((row, r) =>
          row.map((_, c) => {
            const cellArgs = args.map((arg, index) => (criteria.includes(index) && isArray(arg) ? (arg.rows[arg.rows.length === 1 ? 0 : r]?.[(arg.rows[0]?.length ?? 1) === 1 ? 0 : c] ?? cellError("#N/A")) : arg));
            const value = once(cellArgs, env);
            return isArray(value) ? (value.rows[0]?.[0] ?? null) : value;
          }),
        ),
      );
    },
    layout === "countif" || layout === "countifs" ? 2 : layout === "sumif" ? 2 : 3,
    layout === "countifs" || layout === "ifs",
  );

  function once(args: readonly Arg[], env: WorksheetEnv): Value {
    let pairs: [Arg, Arg][];
    let values: CellValue[] | undefined;
    if (layout === "countif" || layout === "sumif") {
      pairs = [[args[0], args[1]]];
      values = layout === "sumif" ? sameShape(args[2] ?? args[0], args[0]) : undefined;
    } else {
      const start = layout === "ifs" ? 1 : 0;
      if ((args.length - start) % 2 !== 0) return cellError("#VALUE!", "criteria come in pairs of range and criterion");
      pairs = [];
      for (let index = start; index < args.length; index += 2) pairs.push([args[index], args[index + 1]]);
      values = layout === "ifs" ? cellsOf(asArray(args[0])) : undefined;
    }
    const kept = matching(pairs, env.dateSystem);
    if (!kept || (values && values.length !== kept.length)) return cellError("#VALUE!", "the ranges differ in size");
    if (!values) return kept.filter(Boolean).length;
    const numbers: number[] = [];
    for (const [index, cell] of values.entries()) {
      if (!kept[index]) continue;
      if (isCellError(cell)) return cell;
      if (typeof cell === "number") numbers.push(cell);
    }
    return reduce(numbers);
  }
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
const total: Reduce = sum;
const average: Reduce = (values) => (values.length === 0 ? cellError("#DIV/0!") : sum(values) / values.length);
const least: Reduce = (values) => (values.length === 0 ? 0 : Math.min(...values));
const most: Reduce = (values) => (values.length === 0 ? 0 : Math.max(...values));

/** The index of `wanted` in `keys`: exact (wildcards in text), or the last key <= wanted (`type` 1) or >= (`type` -1) as Excel's search finds it. */
export function findIndex(keys: readonly CellValue[], wanted: CellValue, type: number): number | undefined {
  if (type === 0) {
    const pattern = typeof wanted === "string" ? wildcardPattern(wanted) : undefined;
    const index = keys.findIndex((key) => (pattern ? typeof key === "string" && pattern.test(key) : sameKind(key, wanted) && compare(key, wanted) === 0));
    return index < 0 ? undefined : index;
  }
  // Excel's binary search over a range it assumes sorted (ascending for 1, descending for -1).
  let low = 0;
  let high = keys.length - 1;
  let found: number | undefined;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    let probe = middle;
    while (probe >= low && !sameKind(keys[probe] ?? null, wanted)) probe -= 1;
    if (probe < low) {
      low = middle + 1;
      continue;
    }
    const order = compare(keys[probe] ?? null, wanted) * (type > 0 ? 1 : -1);
    if (order <= 0) {
      found = probe;
      low = middle + 1;
    } else high = probe - 1;
  }
  return found;
}

function sameKind(a: CellValue, b: CellValue): boolean {
  if (a === null || b === null || isCellError(a) || isCellError(b)) return false;
  return typeof a === typeof b;
}

function lookup(vertical: boolean): FunctionSpec {
  return spec(
    "svnb",
    (args) => {
      const table = args[1];
      if (isCellError(table)) return table;
      // typed text is no table: Excel's VLOOKUP(x, "Nothing", 1) is #VALUE!, where a typed 3 or TRUE is a one-cell table (measured)
      if (typeof table === "string") return cellError("#VALUE!", "the table is text, not a range or an array");
      const grid = toGrid(asArray(table));
      const index = Math.trunc(num(args[2]));
      const approximate = args[3] === undefined ? true : args[3] === true;
      const keys = vertical ? grid.map((row) => row[0] ?? null) : (grid[0] ?? []);
      const span = vertical ? (grid[0]?.length ?? 0) : grid.length;
      if (index < 1) return cellError("#VALUE!", "the column index is below 1");
      if (index > span) return cellError("#REF!", "the column index is beyond the table");
      const found = findIndex(keys, scalarOf(args[0]), approximate ? 1 : 0);
      if (found === undefined) return cellError("#N/A", "no match");
      return (vertical ? grid[found]?.[index - 1] : grid[index - 1]?.[found]) ?? null;
    },
    3,
  );
}

const match = spec(
  "srn",
  (args) => {
    const grid = toGrid(asArray(args[1]));
    if (grid.length !== 1 && (grid[0]?.length ?? 0) !== 1) return cellError("#N/A", "MATCH looks in one row or one column");
    const keys = grid.length === 1 ? (grid[0] ?? []) : grid.map((row) => row[0] ?? null);
    const type = args[2] === undefined ? 1 : Math.sign(num(args[2]));
    const found = findIndex(keys, scalarOf(args[0]), type);
    return found === undefined ? cellError("#N/A", "no match") : found + 1;
  },
  2,
);

/**
 * LOOKUP's vector form (keys in one row or column, answers from another of the same size) and array form (keys in
 * the first row of a wider array or the first column of a taller one, answers from its last): always approximate.
 */
const lookupVector = spec(
  "srr",
  (args) => {
    const grid = toGrid(asArray(args[1]));
    const width = grid[0]?.length ?? 0;
    let keys: CellValue[];
    let answers: CellValue[];
    if (args[2] !== undefined) {
      keys = grid.flat();
      if (grid.length !== 1 && width !== 1) return cellError("#N/A", "LOOKUP's vector is one row or one column");
      answers = toGrid(asArray(args[2])).flat();
    } else if (width > grid.length) {
      keys = grid[0] ?? [];
      answers = grid[grid.length - 1] ?? [];
    } else {
      keys = grid.map((row) => row[0] ?? null);
      answers = grid.map((row) => row[width - 1] ?? null);
    }
    const found = findIndex(keys, scalarOf(args[0]), 1);
    if (found === undefined) return cellError("#N/A", "no match");
    return found < answers.length ? (answers[found] ?? null) : cellError("#N/A", "the result vector is shorter than the lookup vector");
  },
  2,
);

const index = spec(
  "rnnn",
  (args) => {
    // area_num picks one range of a union, which the engine never builds: the only area is the first
    if (args[3] !== undefined && Math.trunc(num(args[3])) < 1) return cellError("#VALUE!", "INDEX's area number is below 1");
    if (args[3] !== undefined && Math.trunc(num(args[3])) > 1) return cellError("#REF!", "INDEX's reference has one area");
    const source = asArray(args[0]);
    const grid = toGrid(source);
    const oneRow = grid.length === 1;
    let row = Math.trunc(num(args[1]));
    let col = args[2] === undefined ? (oneRow ? row : 1) : Math.trunc(num(args[2]));
    if (oneRow && args[2] === undefined) row = 1;
    if (args[2] === undefined && !oneRow && (grid[0]?.length ?? 0) > 1) col = 0;
    if (row < 0 || col < 0) return cellError("#VALUE!", "INDEX of a negative row or column");
    if (row > grid.length || col > (grid[0]?.length ?? 0)) return cellError("#REF!", "INDEX is outside the array");
    // a whole row or column of a range stays that range's part, so a plain formula's `@` meets it in its own row or column
    const area = source.range;
    if (row === 0 && col === 0) return arrayOf(grid, area);
    if (row === 0) return arrayOf(grid.map((line) => [line[col - 1] ?? null]), area && { ...area, left: area.left + col - 1, right: area.left + col - 1 });
    if (col === 0) return arrayOf([grid[row - 1] ?? []], area && { ...area, top: area.top + row - 1, bottom: area.top + row - 1 });
    return grid[row - 1]?.[col - 1] ?? null;
  },
  2,
);

/** XLOOKUP(lookup, lookup_array, return_array, [if_not_found], [match_mode], [search_mode]); match_mode 2 uses wildcards. */
const xlookup = spec(
  "srrvss",
  (args, env) => {
    const wanted = scalarOf(args[0]);
    const lookupGrid = toGrid(asArray(args[1]));
    const returns = toGrid(asArray(args[2]));
    // an empty match or search mode is its default, as is an empty if_not_found
    const mode = (arg: Arg, fallback: number): number | CellValue => (arg === undefined || arg === null ? fallback : toNumber(scalarOf(arg), env.dateSystem));
    const matchMode = mode(args[4], 0);
    const searchMode = mode(args[5], 1);
    if (typeof matchMode !== "number") return matchMode;
    if (typeof searchMode !== "number") return searchMode;
    // Excel's binary search finds in an unsorted range what its own halving finds: not the engine's to guess
    if (matchMode !== 2 && [2, -2].includes(searchMode)) throw new LeftForExcelSignal("XLOOKUP's binary search (search_mode 2 or -2) is left for Excel");
    if (![0, -1, 1, 2].includes(matchMode) || ![1, -1].includes(searchMode)) return cellError("#VALUE!", "XLOOKUP takes match_mode 0, -1, 1, 2 and search_mode 1, -1, 2, -2");
    const vertical = (lookupGrid[0]?.length ?? 0) === 1;
    if (!vertical && lookupGrid.length !== 1) return cellError("#VALUE!", "XLOOKUP lookup_array must be one row or one column");
    const keys = vertical ? lookupGrid.map((row) => row[0] ?? null) : (lookupGrid[0] ?? []);
    const span = vertical ? returns.length : (returns[0]?.length ?? 0);
    if (span !== keys.length) return cellError("#VALUE!", "XLOOKUP lookup_array and return_array differ in size");
    const order = keys.map((_, position) => position);
    if (searchMode === -1) order.reverse();
    const pattern = matchMode === 2 && typeof wanted === "string" ? wildcardPattern(wanted) : undefined;
    let best: number | undefined;
    for (const position of order) {
      const key = keys[position] ?? null;
      if (isCellError(key)) continue;
      if (pattern) {
        if (typeof key === "string" && pattern.test(key)) {
          best = position;
          break;
        }
        continue;
      }
      // the next smaller or larger item is found across kinds in Excel's order (numbers < text < TRUE/FALSE); blanks never
      if (matchMode === 0 ? !sameKind(key, wanted) : key === null) continue;
      const versus = compare(key, wanted);
      if (versus === 0 && sameKind(key, wanted)) {
        best = position;
        break;
      }
      const bestKey = best === undefined ? undefined : (keys[best] ?? null);
      if (matchMode === -1 && versus < 0 && (bestKey === undefined || compare(key, bestKey) > 0)) best = position;
      if (matchMode === 1 && versus > 0 && (bestKey === undefined || compare(key, bestKey) < 0)) best = position;
    }
    if (best === undefined) return args[3] === undefined || args[3] === null ? cellError("#N/A", "XLOOKUP found no match") : args[3];
    const picked = vertical ? [returns[best] ?? []] : returns.map((row) => [row[best] ?? null]);
    return picked.length === 1 && picked[0]?.length === 1 ? (picked[0][0] ?? null) : arrayOf(picked);
  },
  3,
);

function choose(args: readonly Arg[]): Value {
  const which = Math.trunc(num(args[0]));
  if (which < 1 || which >= args.length) return cellError("#VALUE!", "CHOOSE's index is outside its choices");
  return args[which] ?? null;
}

export const LOOKUP: Readonly<Record<string, FunctionSpec>> = {
  COUNTIF: conditional(total, "countif"),
  COUNTIFS: conditional(total, "countifs"),
  SUMIF: conditional(total, "sumif"),
  SUMIFS: conditional(total, "ifs"),
  AVERAGEIF: conditional(average, "sumif"),
  AVERAGEIFS: conditional(average, "ifs"),
  MAXIFS: conditional(most, "ifs"),
  MINIFS: conditional(least, "ifs"),
  VLOOKUP: lookup(true),
  HLOOKUP: lookup(false),
  MATCH: match,
  LOOKUP: lookupVector,
  INDEX: index,
  XLOOKUP: xlookup,
  CHOOSE: spec("nv", choose, 2, true),
  ROWS: spec("r", (args) => asArray(args[0]).rows.length),
  COLUMNS: spec("r", (args) => asArray(args[0]).rows[0]?.length ?? 0),
};

