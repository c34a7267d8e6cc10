/**
 * Result shapes: a grid of one value per (row item, column item) where each cell settles on its own,
 * and tables with optional header rows. Cells that fail hold a `CellFailure` until `finish` turns
 * them into the caller's error values, so one bad symbol or date fills only its own cells.
 */
import { ArgumentError, describeFailure, type Failure, type MakeError } from "./errors";
import { MAX_CELLS, flatten, formatCount, isSingleCell, type HeaderMode, type Matrix } from "./coerce";

export class CellFailure {
  constructor(readonly failure: Failure) {}
}

export type Grid = unknown[][];

/** Either an item or why it is unusable (a bad symbol or date refuses only its own row or column). */
export type Item<T> = { ok: true; value: T } | { ok: false; failure: Failure };

export function readItems<T>(matrix: Matrix, read: (cell: unknown) => T): Item<T>[][] {
  return matrix.map((row) => row.map((cell) => readItem(cell, read)));
}

/** One cell read as an item: its value, or why it is unusable. */
export function readItem<T>(cell: unknown, read: (cell: unknown) => T): Item<T> {
  try {
    return { ok: true, value: read(cell) };
  } catch (error) {
    return { ok: false, failure: describeFailure(error) };
  }
}

export interface CrossLayout<A, B> {
  rows: number;
  cols: number;
  at(row: number, col: number): [Item<A>, Item<B>];
}

/**
 * With one `b`, the result has the shape of `a`; with one `a`, the shape of `b`; with both ranges,
 * `a` runs down (flattened row by row) and `b` across.
 */
export function crossLayout<A, B>(a: Item<A>[][], b: Item<B>[][]): CrossLayout<A, B> {
  const singleA = isSingleCell(a);
  const singleB = isSingleCell(b);
  let layout: CrossLayout<A, B>;
  if (singleB) {
    const only = cellOf(b, 0, 0);
    layout = { rows: a.length, cols: a[0]?.length ?? 0, at: (r, c) => [cellOf(a, r, c), only] };
  } else if (singleA) {
    const only = cellOf(a, 0, 0);
    layout = { rows: b.length, cols: b[0]?.length ?? 0, at: (r, c) => [only, cellOf(b, r, c)] };
  } else {
    const down = flatten(a) as Item<A>[];
    const across = flatten(b) as Item<B>[];
    layout = { rows: down.length, cols: across.length, at: (r, c) => [cellOf([down], 0, r), cellOf([across], 0, c)] };
  }
  checkResultSize(layout.rows, layout.cols);
  return layout;
}

/** The item at (row, col) of a grid the layout has measured; a missing one is a bug, said as such. */
function cellOf<T>(grid: readonly (readonly T[])[], row: number, col: number): T {
  const cell = grid[row]?.[col];
  if (cell === undefined) throw new RangeError(`no item at row ${row}, column ${col}`);
  return cell;
}

/** Refuses a result over MAX_CELLS before any request is made for it. */
export function checkResultSize(rows: number, cols: number): void {
  const cells = rows * cols;
  if (cells > MAX_CELLS) {
    throw new ArgumentError(`the result would have ${formatCount(cells)} cells; the limit is ${formatCount(MAX_CELLS)}`);
  }
}

/** One cell's value, or its failure; never rejects. */
export async function settle(compute: () => Promise<unknown>): Promise<unknown> {
  try {
    return await compute();
  } catch (error) {
    return new CellFailure(describeFailure(error));
  }
}

/** Fills the layout; `compute` is called only for cells whose items are both usable, with the cell's row and column. */
export async function fillGrid<A, B>(
  layout: CrossLayout<A, B>,
  compute: (a: A, b: B, row: number, col: number) => Promise<unknown>,
  blank: (a: Item<A>, b: Item<B>) => boolean,
): Promise<Grid> {
  const one = (a: Item<A>, b: Item<B>, r: number, c: number): unknown => {
    if (blank(a, b)) return "";
    if (!a.ok) return new CellFailure(a.failure);
    if (!b.ok) return new CellFailure(b.failure);
    return settle(() => compute(a.value, b.value, r, c));
  };
  // One cell (a model's =PRICES.MID($A2,B$1)): no arrays of promises to gather.
  if (layout.rows === 1 && layout.cols === 1) {
    const [a, b] = layout.at(0, 0);
    return [[await one(a, b, 0, 0)]];
  }
  const pending: Promise<unknown>[][] = [];
  for (let r = 0; r < layout.rows; r++) {
    const row: Promise<unknown>[] = [];
    for (let c = 0; c < layout.cols; c++) {
      const [a, b] = layout.at(r, c);
      row.push(Promise.resolve(one(a, b, r, c)));
    }
    pending.push(row);
  }
  return Promise.all(pending.map((row) => Promise.all(row)));
}

/**
 * Replaces failures with error values. A 1 x 1 result that failed is thrown instead (`run` turns it
 * into the error value), so the cell shows the error like any single-valued function.
 */
export function finish(grid: Grid, makeError: MakeError): Grid {
  if (grid.length === 1 && grid[0]?.length === 1) {
    const only = grid[0][0];
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- a CellFailure is the cell's answer, caught by its class in context.ts
    if (only instanceof CellFailure) throw only;
  }
  return grid.map((row) =>
    row.map((cell) => (cell instanceof CellFailure ? makeError(cell.failure.code, cell.failure.message, cell.failure.unanswered) : cell)),
  );
}

/** Header rows above a table: none, the column names, or a title (the symbol) then the names. */
export function withHeaders(body: Grid, names: readonly string[], mode: HeaderMode, title: string): Grid {
  checkResultSize(body.length + mode, names.length);
  if (mode === 0) return body;
  const namesRow: unknown[] = [...names];
  if (mode === 1) return [namesRow, ...body];
  const titleRow: unknown[] = names.map((_, index) => (index === 0 ? title : ""));
  return [titleRow, namesRow, ...body];
}
