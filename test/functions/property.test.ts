/**
 * Drives every PRICES.* function with arbitrary arguments (text, numbers, booleans, blanks, ranges up
 * to 1,000 x 1,000) against a client that sometimes rejects or never answers, and checks that each
 * call settles with a value grid of the right shape or a CustomFunctions.Error.
 */
import fc from "fast-check";
import * as F from "../../src/functions/functions";
import { MAX_CELLS } from "../../src/functions/coerce";
import { FakeFunctionError, SYMBOLS, fakeClient, installCustomFunctionsGlobal } from "./support";

type Fn = (...args: never[]) => Promise<unknown[][]>;

const cell = fc.oneof(
  fc.constantFrom(SYMBOLS.aluminium, SYMBOLS.copper, SYMBOLS.hidden, "latest", "2024-03-01", "2024-13-01", "mid", "Monthly", "F24M", "Currency", "USD", "", " "),
  // names of Object.prototype members: a lookup by user text must never find them
  fc.constantFrom("constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "date,constructor", "symbol,__proto__"),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -10, max: 3_000_000 }),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);

/** Small ranges of arbitrary cells, or big ones (up to 1,000 x 1,000) repeating a few cells. */
const range = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }).map(rectangle) },
  {
    weight: 1,
    arbitrary: fc
      .record({ rows: fc.integer({ min: 1, max: 1000 }), cols: fc.integer({ min: 1, max: 1000 }), pattern: fc.array(cell, { minLength: 1, maxLength: 3 }) })
      .map(({ rows, cols, pattern }) => Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => pattern[(r + c) % pattern.length]))),
  },
);
const argument = fc.oneof(cell, range);

function rectangle(rows: unknown[][]): unknown[][] {
  const width = Math.min(...rows.map((row) => row.length));
  return rows.map((row) => row.slice(0, width));
}

function isScalarCell(value: unknown): boolean {
  return (
    value instanceof FakeFunctionError ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}

function dims(value: unknown): [number, number] {
  if (!Array.isArray(value)) return [1, 1];
  return [value.length, (value[0] as unknown[]).length];
}

/** The grid shape LOW, MID, HIGH, PRICE and AVERAGE must give for their symbols and dates. */
function crossShape(symbols: unknown, dates: unknown): [number, number] {
  const [sr, sc] = dims(symbols);
  const [dr, dc] = dims(dates);
  if (dr * dc === 1) return [sr, sc];
  if (sr * sc === 1) return [dr, dc];
  return [sr * sc, dr * dc];
}

const GRID_FUNCTIONS = new Set<Fn>([F.low, F.mid, F.high, F.price, F.average]);

async function settles(fn: Fn, args: unknown[]): Promise<void> {
  const outcome = await (fn as (...values: unknown[]) => Promise<unknown[][]>)(...args).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if ("error" in outcome) {
    expect(outcome.error).toBeInstanceOf(FakeFunctionError);
    expect(["#VALUE!", "#N/A"]).toContain((outcome.error as FakeFunctionError).code);
    expect(typeof (outcome.error as FakeFunctionError).message).toBe("string");
    return;
  }
  const grid = outcome.value;
  expect(Array.isArray(grid)).toBe(true);
  expect(grid.length).toBeGreaterThan(0);
  const width = grid[0]!.length;
  expect(width).toBeGreaterThan(0);
  expect(grid.length * width).toBeLessThanOrEqual(MAX_CELLS);
  for (const row of grid) {
    expect(row).toHaveLength(width);
    for (const value of row) if (!isScalarCell(value)) throw new Error(`cell is not a value or an error: ${String(value)}`);
  }
  if (GRID_FUNCTIONS.has(fn)) {
    const dates = fn === F.average ? args[2] : args[1];
    expect([grid.length, width]).toEqual(crossShape(args[0], dates));
  }
}

const FUNCTIONS: [string, Fn, number][] = [
  ["LOW", F.low, 2],
  ["MID", F.mid, 2],
  ["HIGH", F.high, 2],
  ["PRICE", F.price, 5],
  ["HISTORY", F.history, 9],
  ["AVERAGE", F.average, 4],
  ["CURVE", F.curve, 3],
  ["FORECAST", F.forecast, 4],
  ["INSTRUMENT", F.instrument, 3],
  ["INSTRUMENTS", F.instruments, 4],
  ["REFERENCE", F.reference, 3],
  ["ENTITY", F.entity, 1],
];

beforeAll(() => installCustomFunctionsGlobal());

describe.each(FUNCTIONS)("%s with arbitrary arguments", (_name, fn, arity) => {
  it("settles with a value grid of the right shape or a CustomFunctions.Error", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(argument, { minLength: 0, maxLength: arity }),
        fc.array(fc.constantFrom("answer", "answer", "answer", "reject", "hang") as fc.Arbitrary<"answer" | "reject" | "hang">, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        async (args, fates, signedIn) => {
          let next = 0;
          const fake = fakeClient({ fate: () => fates[next++ % fates.length]! });
          if (signedIn) await globalThis.PricesAddin!.configure({ client: fake.client, recalculate: false, deadlineMs: 25 });
          else await globalThis.PricesAddin!.reset({ recalculate: false });
          await settles(fn, args);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});

/** Excel passes null for an omitted optional argument. */
const OMITTED = null as never;

/** Field texts for a known symbol and dates: real names, Object.prototype members, and any text, in any case. */
const PROTOTYPE_NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf", "propertyIsEnumerable"];
const fieldText = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES, ...PROTOTYPE_NAMES.map((name) => name.toUpperCase()), "mid", "date", "symbol", "currency", "price"),
  fc.string({ maxLength: 12 }),
);

describe("field names from arbitrary text, Object.prototype members included", () => {
  const calls: [string, (field: string) => Promise<unknown[][]>][] = [
    ["PRICE", (field) => F.price([[SYMBOLS.aluminium]], OMITTED, field as F.PriceField)],
    ["HISTORY", (field) => F.history(SYMBOLS.aluminium, "2024-01-01", "2024-01-31", [[`date,${field}`]])],
    ["INSTRUMENT", (field) => F.instrument([[SYMBOLS.aluminium]], field as F.InstrumentField)],
    ["INSTRUMENTS", (field) => F.instruments(OMITTED, [["symbol", field]])],
  ];

  it.each(calls)("%s answers values or #VALUE!/#N/A, and an Object.prototype member is always #VALUE!", async (_name, call) => {
    const fake = fakeClient();
    await globalThis.PricesAddin!.configure({ client: fake.client, recalculate: false, deadlineMs: 2_000 });
    await fc.assert(
      fc.asyncProperty(fieldText, async (field) => {
        const outcome = await call(field).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
        if (PROTOTYPE_NAMES.some((name) => name.toLowerCase() === field.toLowerCase())) {
          expect("error" in outcome && outcome.error instanceof FakeFunctionError && outcome.error.code).toBe("#VALUE!");
          return;
        }
        if ("error" in outcome) {
          expect(outcome.error).toBeInstanceOf(FakeFunctionError);
          return;
        }
        for (const row of outcome.value) for (const value of row) if (!isScalarCell(value)) throw new Error(`cell is not a value or an error: ${String(value)}`);
      }),
      { numRuns: 80 },
    );
  });
});
