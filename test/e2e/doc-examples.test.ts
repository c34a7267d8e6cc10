/**
 * Every example the docs give runs against the sandbox and gives no error, for the analyst's entitlement (every
 * instrument) and the trial's (metals only): each `=PRICES.*` example of docs/functions.md, evaluated in a book of
 * its own through the runner's page, and each sample book of docs/workbook-runner.md as it is written. Cells an
 * example refers to (A2, A2:A6, B1:E1) hold metal symbols and recent dates. Nested Excel formulas (`TODAY()-365`)
 * run through the host's formula engine like the rest: every example is evaluated (none is skipped), an example the
 * engine cannot parse is also listed by name, and any error value fails the test.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { FormulaSyntaxError } from "../../src/formula/parse";
import { parseHostFormula } from "../../src/host/formula";
import { startE2E, TODAY, type Cells, type E2E } from "./support";

jest.setTimeout(240_000);

const ROOT = resolve(__dirname, "../..");
const read = (file: string): string => readFileSync(join(ROOT, "docs", file), "utf8");

/** `- \`=PRICES....\`: what it gives` lines of docs/functions.md. */
function functionExamples(): string[] {
  return [...read("functions.md").matchAll(/^- `(=PRICES\.[^`]+)`: /gm)].map((m) => m[1] as string);
}

/** The JSON sample books (with "cells") of docs/workbook-runner.md. */
function runnerBooks(): { cells: Cells }[] {
  return [...read("workbook-runner.md").matchAll(/```json\n([\s\S]*?)```/g)]
    .map((m) => JSON.parse(m[1] as string) as unknown)
    .filter((book): book is { cells: Cells } => typeof book === "object" && book !== null && "cells" in book);
}

/** Whether the host's formula engine reads the formula. */
function parses(formula: string): boolean {
  try {
    parseHostFormula(formula);
    return true;
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return false;
    throw error;
  }
}

/** The error values of a result (printed as "#CODE: message"). */
const errorsIn = (cells: Record<string, unknown>): string[] =>
  Object.entries(cells)
    .filter(([, value]) => typeof value === "string" && /^#[A-Z0-9/!?]+(:|$)/.test(value))
    .map(([address, value]) => `${address} ${String(value)}`);

const WHO = [
  ["analyst (every instrument)", "sandbox-full", "sandbox-full-secret"],
  ["trial (metals only)", "sandbox-trial", "sandbox-trial-secret"],
] as const;

let e2e: E2E;
const tokens = new Map<string, string>();
/** Cells the examples refer to: five metals in A2:A6, four weekdays before TODAY in B1:E1. */
const fixture: Cells = {};

beforeAll(async () => {
  e2e = await startE2E();
  for (const [, id, secret] of WHO) tokens.set(id, await e2e.clientToken(id, secret));
  const metals = e2e.sandbox.data.instruments.filter((i) => /^MB-/.test(i.record.symbol) && i.record.status === "Active" && i.series.length > 500).slice(0, 5);
  metals.forEach((i, index) => (fixture[`A${index + 2}`] = i.record.symbol));
  ["2025-06-23", "2025-06-24", "2025-06-25", "2025-06-26"].forEach((date, index) => (fixture[`${"BCDE"[index]}1`] = date));
  expect(Object.keys(fixture)).toHaveLength(9);
  expect(TODAY > "2025-06-26").toBe(true);
});
afterAll(async () => {
  await e2e?.close();
});

const examples = functionExamples();
const unreadable = examples.filter((formula) => !parses(formula));

describe("the examples of docs/functions.md", () => {
  it("finds the examples, nested Excel formulas among them, and the host's engine reads every one", () => {
    expect(examples.length).toBeGreaterThanOrEqual(15);
    expect(examples.some((formula) => /TODAY\(\)/i.test(formula))).toBe(true);
    expect(unreadable).toEqual([]);
  });

  describe.each(WHO)("as %s", (_who, clientId) => {
    // every example runs, whether or not the engine reads it: one it cannot read fails here with its own #error too
    it.each(examples)("%s gives no error", async (formula) => {
      const result = await e2e.evaluate({ ...fixture, H10: formula }, { token: tokens.get(clientId) ?? "" });
      expect(result.cells["H10"] ?? null).not.toBeNull();
      expect(errorsIn(result.cells)).toEqual([]);
    });
  });
});

describe("the sample books of docs/workbook-runner.md", () => {
  const books = runnerBooks();
  it("finds at least one", () => {
    expect(books.length).toBeGreaterThanOrEqual(1);
  });

  describe.each(WHO)("as %s", (_who, clientId) => {
    it.each(books.map((book, index) => [index + 1, book] as const))("book %d gives no error", async (_n, book) => {
      const result = await e2e.evaluate(book.cells, { token: tokens.get(clientId) ?? "" });
      expect(errorsIn(result.cells)).toEqual([]);
      const formulas = Object.entries(book.cells).filter(([, v]) => typeof v === "string" && v.startsWith("="));
      for (const [address] of formulas) expect({ address, value: result.cells[address] ?? null }).not.toEqual({ address, value: null });
    });
  });
});
