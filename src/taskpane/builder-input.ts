/**
 * What the formula builder accepts in its boxes, checked before anything is inserted: real dates (or a rolling
 * `TODAY()-N`), `from` not after `to`, field names the function knows, written in the function's own column order.
 * Pure, so it is tested without a page.
 */
import { addDays, parseIsoDate } from "../api";
import type { FunctionSpec, ParameterSpec } from "./catalogue";
import { argFromInput, FormulaError, type FormulaArg } from "./formula";

const ROLLING = /^=?\s*TODAY\(\s*\)\s*(?:([+-])\s*(\d{1,5}))?$/i;

/** A date box: blank, a reference, an Excel serial, `YYYY-MM-DD`, or `TODAY()` / `TODAY()-N` for a date that rolls. */
export function readDateInput(parameter: Pick<ParameterSpec, "name">, raw: string): FormulaArg {
  const text = raw.trim();
  const rolling = ROLLING.exec(text);
  if (rolling) return { kind: "today", offsetDays: rolling[2] === undefined ? 0 : (rolling[1] === "-" ? -1 : 1) * Number(rolling[2]) };
  const arg = argFromInput(text);
  if (arg.kind !== "text") return arg;
  const date = parseIsoDate(arg.value);
  if (date === undefined) throw new FormulaError(`${parameter.name}: "${arg.value}" is not a date. Write YYYY-MM-DD (e.g. 2024-03-01), or TODAY()-30 for a date that rolls forward.`);
  return { kind: "text", value: date };
}

/** The calendar date an argument stands for today, when it is fixed in the formula (not a reference or a serial). */
function dayOf(arg: FormulaArg | undefined, today: string, blank: string | undefined): string | undefined {
  if (!arg || arg.kind === "omitted") return blank;
  if (arg.kind === "today") return addDays(today, arg.offsetDays);
  if (arg.kind === "text") return parseIsoDate(arg.value);
  return undefined;
}

/** `from` after `to` (a blank `to` is today) is refused, as the function would refuse it. */
export function checkDateOrder(spec: FunctionSpec, args: readonly FormulaArg[], today: string): void {
  const from = spec.parameters.findIndex((p) => p.name === "from");
  const to = spec.parameters.findIndex((p) => p.name === "to");
  if (from < 0 || to < 0) return;
  const first = dayOf(args[from], today, undefined);
  const last = dayOf(args[to], today, today);
  if (first !== undefined && last !== undefined && first > last) {
    throw new FormulaError(`from (${first}) is after to (${last}${args[to]?.kind === "omitted" ? ", today" : ""}): choose a first date on or before the last.`);
  }
}

/** Ticked fields in the order the function shows its columns (its list of choices), whatever the order of the ticks. */
export function orderedFields(choices: readonly (string | number)[], ticked: readonly string[]): string[] {
  return choices.map(String).filter((choice) => ticked.includes(choice));
}

/** A typed fields list: every name must be one the function knows (case aside); written as the function names them. */
export function readFieldsInput(parameter: Pick<ParameterSpec, "name" | "choices">, raw: string): FormulaArg {
  const arg = argFromInput(raw, "text");
  if (arg.kind !== "text") return arg;
  const known = (parameter.choices ?? []).map(String);
  const names = arg.value.split(",").map((name) => name.trim()).filter((name) => name !== "");
  const unknown = names.filter((name) => !known.some((k) => k.toLowerCase() === name.toLowerCase()));
  if (unknown.length > 0) throw new FormulaError(`${parameter.name}: ${unknown.map((n) => `"${n}"`).join(", ")} ${unknown.length === 1 ? "is not a field" : "are not fields"} of this function. Tick the fields below instead.`);
  return { kind: "text", value: names.map((name) => known.find((k) => k.toLowerCase() === name.toLowerCase()) ?? name).join(",") };
}
