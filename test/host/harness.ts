/** Runs the fixture bundle under the host engine in Node, as host.html does in a browser. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DateSystem } from "../../src/formula/excel-dates";
import { readBook } from "../../src/host/book";
import type { BookScope } from "../../src/host/book-scope";
import { WorkbookEngine } from "../../src/host/engine";
import { parseFunctionsMetadata } from "../../src/host/metadata";
import { createCustomFunctionsRuntime } from "../../src/host/runtime";
import type { PrintedValue } from "../../src/host/values";

export const FIXTURES = join(__dirname, "fixtures");

export function fixtureMetadata() {
  return parseFunctionsMetadata(JSON.parse(readFileSync(join(FIXTURES, "functions.json"), "utf8")));
}

export interface FixtureHost {
  engine: WorkbookEngine;
  cancelled: string[];
  state: { inFlight: number; maxInFlight: number };
  logged: string[];
  /** Every call the engine made, as `ID(arg, ...)` with the arguments as JSON (the invocation left out). */
  calls: string[];
  /** Applies a new book as an edit (WorkbookEngine.update) and returns the printed cells. */
  update(cells: Record<string, unknown>): Promise<Record<string, PrintedValue>>;
  evaluate(cells: Record<string, unknown>): Promise<Record<string, PrintedValue>>;
}

export function fixtureHost(options: { timeoutMs?: number; today?: () => number; dateSystem?: DateSystem; scope?: BookScope; sheetName?: string } = {}): FixtureHost {
  const runtime = createCustomFunctionsRuntime();
  const scope = globalThis as unknown as Record<string, unknown>;
  scope.CustomFunctions = runtime.global;
  new Function(readFileSync(join(FIXTURES, "functions.js"), "utf8"))();
  const state = scope.FixtureFunctions as { cancelled: string[]; inFlight: number; maxInFlight: number };
  const cancelled = state.cancelled;
  const logged: string[] = [];
  const calls: string[] = [];
  const implementations = runtime.implementations as Map<string, (...args: unknown[]) => unknown>;
  for (const [id, implementation] of [...implementations]) {
    implementations.set(id, (...args: unknown[]) => {
      const shown = args.filter((arg) => !(typeof arg === "object" && arg !== null && "functionName" in arg));
      calls.push(`${id}(${shown.map((arg) => JSON.stringify(arg)).join(", ")})`);
      return implementation(...args);
    });
  }
  const engine = new WorkbookEngine({
    runtime,
    metadata: fixtureMetadata(),
    namespace: "PRICES",
    log: (message) => logged.push(message),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.today === undefined ? {} : { today: options.today }),
    ...(options.dateSystem === undefined ? {} : { dateSystem: () => options.dateSystem ?? "1900" }),
    ...(options.scope === undefined ? {} : { scope: options.scope }),
    ...(options.sheetName === undefined ? {} : { sheetName: options.sheetName }),
  });
  return {
    engine,
    cancelled,
    state,
    logged,
    calls,
    async update(cells) {
      await engine.update(readBook({ cells }));
      return engine.cells();
    },
    async evaluate(cells) {
      engine.load(readBook({ cells }));
      await engine.evaluate();
      return engine.cells();
    },
  };
}
