/** The builder's checks: real dates or rolling ones, from not after to, known fields in the function's column order. */
import { checkDateOrder, orderedFields, readDateInput, readFieldsInput } from "../../src/taskpane/builder-input";
import { findFunction, HISTORY_FIELD_CHOICES, INSTRUMENT_FIELD_CHOICES, type FunctionSpec } from "../../src/taskpane/catalogue";
import { buildFormula, FormulaError, type FormulaArg } from "../../src/taskpane/formula";

const HISTORY = findFunction("HISTORY") as FunctionSpec;
const from = { name: "from" };
const text = (value: string): FormulaArg => ({ kind: "text", value });

describe("date boxes", () => {
  it("refuses a date that does not exist, saying what to write", () => {
    expect(() => readDateInput(from, "2024-13-01")).toThrow(FormulaError);
    expect(() => readDateInput(from, "2024-02-30")).toThrow(/from: "2024-02-30" is not a date\. Write YYYY-MM-DD/);
    expect(() => readDateInput(from, "yesterday")).toThrow(/TODAY\(\)-30/);
  });

  it("pads a real date, keeps references and serials, and reads TODAY()-N as a rolling date", () => {
    expect(readDateInput(from, "2024-3-1")).toEqual(text("2024-03-01"));
    expect(readDateInput(from, "B2")).toEqual({ kind: "ref", address: "B2" });
    expect(readDateInput(from, "45352")).toEqual({ kind: "number", value: 45352 });
    expect(readDateInput(from, "=today() - 365")).toEqual({ kind: "today", offsetDays: -365 });
    expect(readDateInput(from, "TODAY()")).toEqual({ kind: "today", offsetDays: 0 });
    expect(readDateInput(from, "")).toEqual({ kind: "omitted" });
  });

  it("writes a rolling history with `to` blank", () => {
    expect(buildFormula(HISTORY, [text("MB-AL-0004"), { kind: "today", offsetDays: -365 }])).toBe('=PRICES.HISTORY("MB-AL-0004",TODAY()-365)');
  });
});

describe("from and to", () => {
  it("refuses from after to, and from after today when to is blank", () => {
    expect(() => checkDateOrder(HISTORY, [text("X"), text("2024-05-01"), text("2023-01-01")], "2025-01-01")).toThrow("from (2024-05-01) is after to (2023-01-01)");
    expect(() => checkDateOrder(HISTORY, [text("X"), text("2025-02-01"), { kind: "omitted" }], "2025-01-01")).toThrow("from (2025-02-01) is after to (2025-01-01, today)");
    expect(() => checkDateOrder(HISTORY, [text("X"), { kind: "today", offsetDays: 5 }], "2025-01-01")).toThrow(/from \(2025-01-06\)/);
  });

  it("accepts from on or before to, and leaves references to the function", () => {
    expect(() => checkDateOrder(HISTORY, [text("X"), text("2024-01-01"), text("2024-01-01")], "2025-01-01")).not.toThrow();
    expect(() => checkDateOrder(HISTORY, [text("X"), { kind: "today", offsetDays: -30 }], "2025-01-01")).not.toThrow();
    expect(() => checkDateOrder(HISTORY, [text("X"), { kind: "ref", address: "B1" }, text("2020-01-01")], "2025-01-01")).not.toThrow();
  });
});

describe("fields", () => {
  it("writes ticked fields in the table's column order, whatever the order of the ticks", () => {
    expect(orderedFields(HISTORY_FIELD_CHOICES, ["mid", "date"])).toEqual(["date", "mid"]);
    expect(orderedFields(HISTORY_FIELD_CHOICES, ["assessed", "high", "low"])).toEqual(["low", "high", "assessed"]);
  });

  it("refuses a typed field the function does not know, and writes known ones as the function names them", () => {
    const fields = { name: "fields", choices: INSTRUMENT_FIELD_CHOICES };
    expect(() => readFieldsInput(fields, "symbol,descripton")).toThrow('fields: "descripton" is not a field of this function');
    expect(readFieldsInput(fields, "SYMBOL, launchdate")).toEqual(text("symbol,launchDate"));
  });
});
