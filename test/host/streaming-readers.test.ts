/** A streamed value recalculates what reads it: the fixture's STREAM sends start, then start + 1 each time the test pushes. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readBook } from "../../src/host/book";
import { WorkbookEngine } from "../../src/host/engine";
import { createCustomFunctionsRuntime } from "../../src/host/runtime";
import { FIXTURES, fixtureMetadata } from "./harness";

it("recalculates the formulas that read a streaming cell when it delivers a later value, and says which cell changed", async () => {
  const runtime = createCustomFunctionsRuntime();
  (globalThis as Record<string, unknown>).CustomFunctions = runtime.global;
  new Function(readFileSync(join(FIXTURES, "functions.js"), "utf8"))();
  const changed: string[] = [];
  let placed: (() => void) | undefined;
  const engine = new WorkbookEngine({ runtime, metadata: fixtureMetadata(), namespace: "PRICES", onChange: (address) => changed.push(address), onPlaced: () => placed?.() });
  engine.load(readBook({ cells: { A1: "=PRICES.STREAM(5)", B1: "=A1*2", C1: "=B1+1" } }));
  await engine.evaluate();
  expect(engine.cells()).toEqual({ A1: 5, B1: 10, C1: 11 });
  const recalculated = new Promise<void>((done) => {
    placed = () => {
      if (engine.value(0, 2) === 13) done();
    };
  });
  (globalThis as { FixtureFunctions?: { push(): void } }).FixtureFunctions?.push();
  await recalculated;
  expect(engine.cells()).toEqual({ A1: 6, B1: 12, C1: 13 });
  expect(changed).toEqual(["A1"]);
  engine.cancelAll();
});
