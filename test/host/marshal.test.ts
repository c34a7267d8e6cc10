import { type ArgumentInput, coerce, marshalArguments } from "../../src/host/marshal";
import type { FunctionMetadata } from "../../src/host/metadata";
import { CustomFunctionsError } from "../../src/host/runtime";
import { cellError } from "../../src/host/values";
import { fixtureMetadata } from "./harness";

const functions = new Map(fixtureMetadata().map((fn) => [fn.name, fn]));
function fn(name: string): FunctionMetadata {
  const found = functions.get(name);
  if (!found) throw new Error(`no fixture ${name}`);
  return found;
}
const value = (v: ArgumentInput extends infer T ? (T extends { kind: "value"; value: infer V } ? V : never) : never): ArgumentInput => ({ kind: "value", value: v });
const grid = (rows: ArgumentInput extends infer T ? (T extends { kind: "grid"; rows: infer R } ? R : never) : never): ArgumentInput => ({
  kind: "grid",
  rows,
  range: { top: 0, left: 0, bottom: rows.length - 1, right: (rows[0]?.length ?? 1) - 1 },
});
const missing: ArgumentInput = { kind: "missing" };

describe("coerce", () => {
  it.each([
    [12, "number", 12],
    ["12.5", "number", 12.5],
    [true, "number", 1],
    [null, "number", 0],
    [45000, "string", "45000"],
    [false, "string", "FALSE"],
    [null, "string", ""],
    ["true", "boolean", true],
    [0, "boolean", false],
    [null, "boolean", false],
    [null, "any", ""],
    ["x", "any", "x"],
  ] as const)("%p as %s is %p", (input, type, expected) => {
    expect(coerce(input, type, false, "p")).toEqual(expected);
  });

  it("rejects text that is not a number or a boolean with #VALUE!", () => {
    expect(() => coerce("abc", "number", false, "price")).toThrow('price must be a number, got "abc"');
    expect(() => coerce("maybe", "boolean", false, "flag")).toThrow("flag must be TRUE or FALSE");
  });

  it("passes errors to an any parameter only when the function accepts them", () => {
    const error = cellError("#N/A", "gone");
    expect(() => coerce(error, "any", false, "p")).toThrow();
    const passed = coerce(error, "any", true, "p");
    expect(passed).toBeInstanceOf(CustomFunctionsError);
    expect(passed).toMatchObject({ code: "#N/A", message: "gone" });
  });
});

describe("marshalArguments", () => {
  it("passes omitted optional arguments as null, including missing ones in the middle", () => {
    const result = marshalArguments(fn("OPTIONS"), [value("a"), missing, value(true)], "PRICES.OPTIONS");
    expect(result).toMatchObject({ kind: "calls", lifted: false, calls: [{ args: ["a", null, true] }] });
    const short = marshalArguments(fn("OPTIONS"), [value("a")], "PRICES.OPTIONS");
    expect(short).toMatchObject({ calls: [{ args: ["a", null, null] }] });
  });

  it("gathers repeating parameters into arrays, in groups when several repeat", () => {
    expect(marshalArguments(fn("JOIN"), [value("-"), value("a"), value(2), value(true)], "J")).toMatchObject({
      calls: [{ args: ["-", ["a", "2", "TRUE"]] }],
    });
    expect(marshalArguments(fn("JOIN"), [value("-")], "J")).toMatchObject({ calls: [{ args: ["-", []] }] });
    expect(marshalArguments(fn("PAIRS"), [value("a"), value(1), value("b"), value("2")], "P")).toMatchObject({
      calls: [{ args: [["a", "b"], [1, 2]] }],
    });
  });

  it("passes a matrix parameter a 2-D array, a single value as [[value]]", () => {
    expect(marshalArguments(fn("TOTAL"), [grid([[1, "2"], [null, true]])], "T")).toMatchObject({ calls: [{ args: [[[1, 2], [0, 1]]] }] });
    expect(marshalArguments(fn("TOTAL"), [value(5)], "T")).toMatchObject({ calls: [{ args: [[[5]]] }] });
    expect(marshalArguments(fn("SHAPE"), [grid([[null]])], "S")).toMatchObject({ calls: [{ args: [[[""]]] }] });
  });

  it("lifts a range given to a scalar parameter: one call per cell in the range's shape", () => {
    const result = marshalArguments(fn("ADD"), [grid([[1], [2], [3]]), value(10)], "A");
    expect(result).toMatchObject({ kind: "calls", lifted: true, rows: 3, cols: 1 });
    if (result.kind !== "calls") throw new Error("expected calls");
    expect(result.calls.map((call) => call.args)).toEqual([[1, 10], [2, 10], [3, 10]]);
  });

  it("broadcasts a column against a row and fills mismatched sizes with #N/A", () => {
    const result = marshalArguments(fn("ADD"), [grid([[1], [2]]), grid([[10, 20, 30]])], "A");
    if (result.kind !== "calls") throw new Error("expected calls");
    expect([result.rows, result.cols]).toEqual([2, 3]);
    expect(result.calls.map((call) => call.args)).toEqual([[1, 10], [1, 20], [1, 30], [2, 10], [2, 20], [2, 30]]);
    const uneven = marshalArguments(fn("ADD"), [grid([[1], [2], [3]]), grid([[10], [20]])], "A");
    if (uneven.kind !== "calls") throw new Error("expected calls");
    expect(uneven.calls.map((call) => call.args)).toEqual([[1, 10], [2, 20], cellError("#N/A")]);
  });

  it("fails only the lifted cell whose input is an error or cannot be coerced", () => {
    const result = marshalArguments(fn("ADD"), [grid([[1], ["x"], [cellError("#N/A", "gone")]]), value(1)], "A");
    if (result.kind !== "calls") throw new Error("expected calls");
    expect(result.calls[0]?.args).toEqual([1, 1]);
    expect(result.calls[1]?.args).toEqual(cellError("#VALUE!", 'first must be a number, got "x"'));
    expect(result.calls[2]?.args).toEqual(cellError("#N/A", "gone"));
  });

  it("stops the whole formula on an error in a single-cell or matrix argument", () => {
    expect(marshalArguments(fn("ADD"), [value(cellError("#DIV/0!")), value(1)], "A")).toEqual({ kind: "error", error: cellError("#DIV/0!") });
    expect(marshalArguments(fn("TOTAL"), [grid([[1, cellError("#N/A")]])], "T")).toEqual({ kind: "error", error: cellError("#N/A") });
  });

  it("answers #VALUE! for too many or too few arguments", () => {
    expect(marshalArguments(fn("ADD"), [value(1), value(2), value(3)], "PRICES.ADD")).toEqual({
      kind: "error",
      error: cellError("#VALUE!", "PRICES.ADD takes at most 2 arguments, got 3"),
    });
    expect(marshalArguments(fn("ADD"), [value(1)], "PRICES.ADD")).toEqual({
      kind: "error",
      error: cellError("#VALUE!", "PRICES.ADD needs at least 2 arguments, got 1"),
    });
  });

  it("gives parameter addresses: the range for a reference, the cell for a lifted call, empty for a literal", () => {
    const result = marshalArguments(fn("PARAMETERADDRESSES"), [grid([[1], [2]]), value(3)], "P");
    if (result.kind !== "calls") throw new Error("expected calls");
    expect(result.calls.map((call) => call.parameterAddresses)).toEqual([["Sheet1!A1", ""], ["Sheet1!A2", ""]]);
  });
});
