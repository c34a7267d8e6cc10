/**
 * Issue 27's probe (scripts/excel-probe.ts): what `write` puts in the file reads back as the designed cases, and
 * `score` over a file whose cached values are the engine's own gives the engine every cell, and misses a value
 * moved off it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Outcome, designCases, engineOutcome, familyOf, nextDouble, probePackage, readProbe, scoreProbe } from "../../scripts/excel-probe";

describe("the Excel probe for IRR, MIRR and RATE", () => {
  const cases = designCases();
  const directory = mkdtempSync(join(tmpdir(), "excel-probe-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  /** The probe written with `cached` as its formulas' values, read back. */
  const roundTrip = (name: string, cached?: ReadonlyMap<string, Outcome>) => {
    const path = join(directory, name);
    writeFileSync(path, probePackage(cases, cached));
    return readProbe(path);
  };

  it("holds the seven listed cells' inputs and every family the design names", () => {
    const ids = new Set(cases.map((one) => one.id));
    for (const id of ["irr-listed/L27", "irr-listed/L50", "irr-listed/L56", "mirr-listed/f0.3", "mirr-listed/f12", "mirr-listed/f-12"]) expect(ids.has(id)).toBe(true);
    expect(ids.size).toBe(cases.length);
    expect([...new Set(cases.map((one) => familyOf(one.id)))].sort()).toEqual(["irr-corpus", "irr-guess", "irr-listed", "irr-nudge", "irr-public", "irr-random", "irr-rate", "irr-scale", "irr-ulp", "mirr-corpus", "mirr-grid", "mirr-listed", "mirr-public", "rate-corpus", "rate-grid", "rate-long", "rate-public"]);
  });

  it("reads back every designed case from its row, inputs to the bit, with no cached value and a full calculation asked for", () => {
    const { cells, notExcel } = roundTrip("written.xlsx");
    expect(cells.map(({ excel: _excel, ...rest }) => rest)).toEqual(cases);
    expect(cells.filter((cell) => cell.excel !== undefined)).toEqual([]);
    expect(notExcel).toMatch(/fullCalcOnLoad/);
  });

  it("gives the engine every cell it answers when the cached values are its own", () => {
    const own = new Map(cases.map((one) => [one.id, engineOutcome(one)] as const));
    const scores = scoreProbe(roundTrip("own.xlsx", own).cells, []);
    for (const { fn, engine } of scores) {
      expect(engine.cells).toBeGreaterThan(0);
      expect({ fn, bits: engine.bits, digits: engine.digits, differ: engine.differ }).toEqual({ fn, bits: engine.cells, digits: engine.cells, differ: [] });
    }
  });

  it("misses a cached value a unit in the last place off to the bit, and one 0.1 % off at 15 digits", () => {
    const own = new Map(cases.map((one) => [one.id, engineOutcome(one)] as const));
    const [ulp, far] = cases.filter((one) => one.fn === "IRR" && typeof own.get(one.id) === "number").map((one) => one.id);
    if (ulp === undefined || far === undefined) throw new Error("the probe has no two IRR cells the engine answers");
    const value = (id: string) => own.get(id) as number;
    own.set(ulp, nextDouble(value(ulp), 1));
    own.set(far, value(far) * 1.001);
    const irr = scoreProbe(roundTrip("perturbed.xlsx", own).cells, [], ["IRR"])[0]?.engine;
    expect({ bits: irr?.bits, digits: irr?.digits, differ: irr?.differ }).toEqual({ bits: (irr?.cells ?? 0) - 2, digits: (irr?.cells ?? 0) - 1, differ: [far] });
  });
});
