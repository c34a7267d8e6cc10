/**
 * The evaluator answers at once where nothing waits for a custom call, and with a promise only above one
 * (src/host/eventually.ts): both paths give the same value for the same formula, an untaken branch's custom call is
 * never made, errors and signals come out the same, and a chain of plain formulas after a PRICES cell is placed in
 * the same scan of the recalculation.
 */
import { parseCellAddress } from "../../src/formula/a1";
import { parseHostFormula } from "../../src/host/formula";
import { readBook } from "../../src/host/book";
import { type EvaluationContext, LeftForExcelSignal, evaluate, evaluateFormula } from "../../src/host/evaluate";
import { allOf, inTurn, isPending } from "../../src/host/eventually";
import type { ArgumentInput } from "../../src/host/marshal";
import type { ResultGrid } from "../../src/host/results";
import { type Value, arrayOf } from "../../src/host/value-array";
import { type CellValue, cellError } from "../../src/host/values";
import { fixtureHost } from "./harness";

/** A sheet of `cells` (a cell named in `left` is left for Excel) whose PRICES.ECHO answers its argument after a wait; `calls` records each call. */
function sheet(cells: Record<string, CellValue>, left: readonly string[] = []): { context: EvaluationContext; calls: string[] } {
  const calls: string[] = [];
  const valueOf = (input: ArgumentInput | undefined): CellValue => (input?.kind === "value" ? input.value : input?.kind === "grid" ? (input.rows[0]?.[0] ?? null) : null);
  const context: EvaluationContext = {
    at: { row: 0, col: 9 },
    dateSystem: "1900",
    today: () => 45_000,
    name: () => undefined,
    structured: (text) => `no table ${text}`,
    aggregatesIn: () => [],
    reference: (reference) => {
      const rows: CellValue[][] = [];
      for (let row = reference.range.top; row <= reference.range.bottom; row += 1) {
        const values: CellValue[] = [];
        for (let col = reference.range.left; col <= reference.range.right; col += 1) {
          const address = Object.keys(cells).concat(left).find((name) => parseCellAddress(name)?.row === row && parseCellAddress(name)?.col === col);
          if (address !== undefined && left.includes(address)) throw new LeftForExcelSignal(`depends on ${address} (left for Excel)`);
          values.push(address === undefined ? null : (cells[address] ?? null));
        }
        rows.push(values);
      }
      return arrayOf(rows, reference.range);
    },
    custom: (name) => {
      if (name === "PRICES.ECHO") {
        return async (inputs: readonly ArgumentInput[]): Promise<ResultGrid> => {
          calls.push(`ECHO(${JSON.stringify(valueOf(inputs[0]))})`);
          await new Promise((resolve) => setImmediate(resolve));
          return [[valueOf(inputs[0])]];
        };
      }
      if (name === "PRICES.REFUSE") {
        return async (): Promise<ResultGrid> => {
          calls.push("REFUSE()");
          await new Promise((resolve) => setImmediate(resolve));
          throw new LeftForExcelSignal("refused");
        };
      }
      return undefined;
    },
  };
  return { context, calls };
}

const evaluated = (formula: string, context: EvaluationContext): Value | Promise<Value> => evaluate(parseHostFormula(formula), context, "PRICES");

/** Whether the formula's value came at once, and what it is. */
async function outcome(formula: string, context: EvaluationContext): Promise<{ atOnce: boolean; value: Value }> {
  const value = evaluated(formula, context);
  return { atOnce: !isPending(value), value: await value };
}

describe("the synchronous evaluation path", () => {
  const cells = { A1: 3, A2: 4, A3: "x", B1: 10, B2: 20 };

  it.each([
    ["=A1*2+A2^2", "=PRICES.ECHO(A1)*2+A2^2"],
    ['=IF(A1>2, A1&"!", "small")', '=IF(PRICES.ECHO(A1)>2, A1&"!", "small")'],
    ["=SUM(A1:A2, B1:B2)/4", "=SUM(A1:A2, B1:B2)/PRICES.ECHO(4)"],
    ["=LET(x, A1+1, y, x*2, x+y)", "=LET(x, PRICES.ECHO(A1)+1, y, x*2, x+y)"],
    ["=IFERROR(A3*2, -1)", "=IFERROR(A3*PRICES.ECHO(2), -1)"],
    ["=A1:A2*B1:B2", "=A1:A2*B1:B2+PRICES.ECHO(0)"],
    ["=OFFSET(A1, 1, 1)*2", "=OFFSET(A1, PRICES.ECHO(1), 1)*2"],
    ["=SUBTOTAL(9, A1:B2)", "=SUBTOTAL(PRICES.ECHO(9), A1:B2)"],
  ])("gives %s at once, and the same value as %s does after its call", async (plain, withCall) => {
    const { context } = sheet(cells);
    const now = await outcome(plain, context);
    const later = await outcome(withCall, context);
    expect(now.atOnce).toBe(true);
    expect(later.atOnce).toBe(false);
    expect(later.value).toEqual(now.value);
  });

  it("never makes a custom call in IF's untaken branch, nor in IFERROR's fallback when nothing is caught", async () => {
    const { context, calls } = sheet(cells);
    expect(await evaluated("=IF(A1>2, 1, PRICES.ECHO(2))", context)).toBe(1);
    expect(await evaluated("=IF(A1<2, PRICES.ECHO(1), 2)", context)).toBe(2);
    expect(await evaluated("=IFERROR(A1, PRICES.ECHO(0))", context)).toEqual(arrayOf([[3]], { top: 0, left: 0, bottom: 0, right: 0 }));
    expect(calls).toEqual([]);
    expect(await evaluated("=IF(A1>2, PRICES.ECHO(5), 2)", context)).toBe(5);
    expect(calls).toEqual(["ECHO(5)"]);
  });

  it("gives an error value the same way on both paths", async () => {
    const { context } = sheet(cells);
    const text = cellError("#VALUE!", 'expected a number, got "x"');
    expect(await outcome("=A3+1", context)).toEqual({ atOnce: true, value: text });
    expect(await outcome("=PRICES.ECHO(A3)+1", context)).toEqual({ atOnce: false, value: text });
    expect(await outcome("=A1/0", context)).toEqual({ atOnce: true, value: cellError("#DIV/0!") });
    expect(await outcome("=PRICES.ECHO(A1)/0", context)).toEqual({ atOnce: false, value: cellError("#DIV/0!") });
  });

  it("stops at a cell left for Excel: thrown at once, or the promise's rejection above a call", async () => {
    const { context, calls } = sheet(cells, ["C1"]);
    expect(() => evaluated("=C1+1", context)).toThrow(new LeftForExcelSignal("depends on C1 (left for Excel)"));
    await expect(evaluated("=IF(PRICES.ECHO(A1)>2, C1, 0)", context)).rejects.toThrow(new LeftForExcelSignal("depends on C1 (left for Excel)"));
    expect(calls).toEqual(["ECHO(3)"]);
  });

  it("drops a started call's failure without an unhandled rejection when a sibling stops the formula at once", async () => {
    const { context, calls } = sheet(cells, ["C1"]);
    const unhandled: unknown[] = [];
    const listener = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on("unhandledRejection", listener);
    try {
      expect(() => evaluated("=PRICES.REFUSE()+C1", context)).toThrow(new LeftForExcelSignal("depends on C1 (left for Excel)"));
      expect(() => evaluated("=SUM(PRICES.REFUSE(), C1)", context)).toThrow(new LeftForExcelSignal("depends on C1 (left for Excel)"));
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off("unhandledRejection", listener);
    }
    expect(calls).toEqual(["REFUSE()", "REFUSE()"]);
    expect(unhandled).toEqual([]);
  });

  it("gives a formula that is one custom call its grid after the call, and any other formula its grid at once", async () => {
    const { context } = sheet(cells);
    const plain = evaluateFormula(parseHostFormula("=A1:A2+1"), context, "PRICES");
    expect(plain).toEqual([[4], [5]]);
    const call = evaluateFormula(parseHostFormula("=PRICES.ECHO(B2)"), context, "PRICES");
    expect(isPending(call)).toBe(true);
    expect(await call).toEqual([[20]]);
  });
});

describe("allOf and inTurn", () => {
  it("answer at once when every step does, and with one promise when one waits, in order", async () => {
    expect(allOf([1, 2, 3], (item) => item * 2)).toEqual([2, 4, 6]);
    const waiting = allOf([1, 2, 3], (item) => (item === 2 ? Promise.resolve(20) : item * 2));
    expect(isPending(waiting)).toBe(true);
    expect(await waiting).toEqual([2, 20, 6]);
    const seen: number[] = [];
    const ran = inTurn(4, (index) => (index === 1 ? Promise.resolve(seen.push(index) > 0) : seen.push(index) < 3));
    expect(isPending(ran)).toBe(true);
    expect(await ran).toBe(false);
    expect(seen).toEqual([0, 1, 2]);
    expect(inTurn(3, () => true)).toBe(true);
  });
});

describe("a recalculation with the synchronous path", () => {
  it("evaluates a chain of plain formulas after its PRICES cell once the call has answered, with one call", async () => {
    const host = fixtureHost();
    host.engine.load(readBook({ cells: { A1: 2, B1: "=PRICES.ADD(A1, 1)", C1: "=B1*2", D1: "=C1+B1", E1: "=D1/3", F1: "=A1*10", G1: "=E1+PRICES.ADD(F1, 1)" } }));
    await host.engine.evaluate();
    expect(host.engine.cells()).toEqual({ A1: 2, B1: 3, C1: 6, D1: 9, E1: 3, F1: 20, G1: 24 });
    expect(host.calls).toEqual(["ADD(2, 1)", "ADD(20, 1)"]);
  });
});
