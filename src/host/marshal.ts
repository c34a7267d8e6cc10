/**
 * Turns formula arguments into the JavaScript arguments functions.json promises: types coerced, matrices as 2-D
 * arrays, omitted arguments as null, repeating parameters as arrays, and ranges given to scalar parameters lifted
 * (one call per cell, results spilled in the range's shape) as dynamic-array Excel does.
 */
import { type RangeRef, formatRangeAddress } from "../formula/a1";
import { SHEET_NAME } from "./addresses";
import type { FunctionMetadata, ParameterMetadata, ParameterType } from "./metadata";
import { toFunctionError } from "./runtime";
import { type CellError, type CellValue, cellError, isCellError } from "./values";

export type ArgumentInput =
  | { readonly kind: "missing" }
  | { readonly kind: "value"; readonly value: CellValue }
  | { readonly kind: "grid"; readonly rows: readonly (readonly CellValue[])[]; readonly range?: RangeRef };

export interface PreparedCall {
  /** Offset of this call's result inside the formula's result (0, 0 unless lifted). */
  readonly row: number;
  readonly col: number;
  /** The arguments before the invocation object, or the error the call short-circuits to. */
  readonly args: readonly unknown[] | CellError;
  /** Where each argument came from, for a function that requires parameter addresses (empty for any other). */
  readonly parameterAddresses: readonly string[];
}

export type Marshalled =
  | { readonly kind: "error"; readonly error: CellError }
  | { readonly kind: "calls"; readonly rows: number; readonly cols: number; readonly lifted: boolean; readonly calls: readonly PreparedCall[] };

class ArgumentError extends Error {
  constructor(readonly error: CellError) {
    super(error.message ?? error.code);
  }
}

/** Excel's number coercion of text: plain decimal text only. */
function textToNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

/** One value coerced to a parameter type; an empty cell becomes 0, "", FALSE or "" (any). */
export function coerce(value: CellValue, type: ParameterType, acceptErrors: boolean, parameter: string): unknown {
  if (isCellError(value)) {
    if (type === "any" && acceptErrors) return toFunctionError(value);
    throw new ArgumentError(value);
  }
  switch (type) {
    case "number":
      if (value === null) return 0;
      if (typeof value === "number") return value;
      if (typeof value === "boolean") return value ? 1 : 0;
      return textToNumber(value) ?? invalid(parameter, "a number", value);
    case "string":
      if (value === null) return "";
      if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
      return String(value);
    case "boolean":
      if (value === null) return false;
      if (typeof value === "boolean") return value;
      if (typeof value === "number") return value !== 0;
      if (/^true$/i.test(value.trim())) return true;
      if (/^false$/i.test(value.trim())) return false;
      return invalid(parameter, "TRUE or FALSE", value);
    case "any":
      return value === null ? "" : value;
  }
}

/** A value a parameter cannot take (a function, not a closure per coerced value: tsx names each one it makes). */
function invalid(parameter: string, what: string, value: CellValue): never {
  throw new ArgumentError(cellError("#VALUE!", `${parameter} must be ${what}, got ${JSON.stringify(value)}`));
}

const NO_ADDRESSES: readonly string[] = [];

interface Slot {
  readonly parameter: ParameterMetadata;
  readonly input: ArgumentInput;
}

/** What a function's parameters say about its arguments, worked out once per function (not once per call: 10,000 on a model). */
interface ParameterShape {
  readonly parameters: readonly ParameterMetadata[];
  /** Index of the first repeating parameter, or -1. */
  readonly firstRepeating: number;
  /** Required parameters, and the index of the last of them (-1 for none). */
  readonly required: number;
  readonly lastRequired: number;
}

const shapes = new WeakMap<FunctionMetadata, ParameterShape>();

function shapeOf(metadata: FunctionMetadata): ParameterShape {
  let shape = shapes.get(metadata);
  if (shape === undefined) {
    const parameters = metadata.parameters;
    const isRequired = (parameter: ParameterMetadata): boolean => !parameter.optional && !parameter.repeating;
    shape = {
      parameters,
      firstRepeating: parameters.findIndex((parameter) => parameter.repeating),
      required: parameters.filter(isRequired).length,
      lastRequired: parameters.reduce((last, parameter, index) => (isRequired(parameter) ? index : last), -1),
    };
    shapes.set(metadata, shape);
  }
  return shape;
}

function parameterFor(shape: ParameterShape, index: number): ParameterMetadata | undefined {
  const { parameters, firstRepeating } = shape;
  if (firstRepeating < 0 || index < firstRepeating) return parameters[index];
  const group = parameters.length - firstRepeating;
  return parameters[firstRepeating + ((index - firstRepeating) % group)];
}

function addressOf(input: ArgumentInput, row = 0, col = 0, lifted = false): string {
  if (input.kind !== "grid" || !input.range) return "";
  const range = lifted
    ? { top: input.range.top + row, left: input.range.left + col, bottom: input.range.top + row, right: input.range.left + col }
    : input.range;
  return `${SHEET_NAME}!${formatRangeAddress(range)}`;
}

function isLifted(slot: Slot): boolean {
  if (slot.parameter.dimensionality === "matrix" || slot.input.kind !== "grid") return false;
  return slot.input.rows.length > 1 || (slot.input.rows[0]?.length ?? 0) > 1;
}

function slotValue(slot: Slot, acceptErrors: boolean, row: number, col: number): unknown {
  const { parameter, input } = slot;
  const accept = acceptErrors;
  if (input.kind === "missing") return null;
  if (parameter.dimensionality === "matrix") {
    const rows = input.kind === "value" ? [[input.value]] : input.rows;
    return rows.map((cells) => cells.map((cell) => coerce(cell, parameter.type, accept, parameter.name)));
  }
  if (input.kind === "value") return coerce(input.value, parameter.type, accept, parameter.name);
  // A lifted grid of one row or column is broadcast across the other direction; past its edge Excel shows #N/A.
  const height = input.rows.length;
  const width = input.rows[0]?.length ?? 0;
  const r = height === 1 ? 0 : row;
  const c = width === 1 ? 0 : col;
  if (r >= height || c >= width) throw new ArgumentError(cellError("#N/A"));
  return coerce(input.rows[r]?.[c] ?? null, parameter.type, accept, parameter.name);
}

/** Arguments for each call a formula makes, or the error it results in without calling. */
export function marshalArguments(metadata: FunctionMetadata, inputs: readonly ArgumentInput[], displayName: string): Marshalled {
  const shape = shapeOf(metadata);
  const parameters = shape.parameters;
  if (shape.firstRepeating < 0 && inputs.length > parameters.length) {
    return { kind: "error", error: cellError("#VALUE!", `${displayName} takes at most ${parameters.length} arguments, got ${inputs.length}`) };
  }
  if (inputs.length <= shape.lastRequired) {
    const required = shape.required;
    return { kind: "error", error: cellError("#VALUE!", `${displayName} needs at least ${required} argument${required === 1 ? "" : "s"}, got ${inputs.length}`) };
  }
  const slots: Slot[] = inputs.map((input, index) => ({ parameter: parameterFor(shape, index) as ParameterMetadata, input }));
  const acceptErrors = metadata.options.allowErrorForDataTypeAny;
  if (!slots.some(isLifted)) return oneCall(shape, metadata, slots, acceptErrors);

  const liftedSlots = slots.filter(isLifted);
  let rows = 1;
  let cols = 1;
  for (const slot of liftedSlots) {
    if (slot.input.kind !== "grid") continue;
    rows = Math.max(rows, slot.input.rows.length);
    cols = Math.max(cols, slot.input.rows[0]?.length ?? 0);
  }

  // A matrix or unlifted argument that holds an error stops the whole formula, as in Excel.
  let shared: unknown[];
  try {
    shared = slots.map((slot) => (isLifted(slot) ? undefined : slotValue(slot, acceptErrors, 0, 0)));
  } catch (error) {
    if (error instanceof ArgumentError) return { kind: "error", error: error.error };
    throw error;
  }

  const calls: PreparedCall[] = [];
  for (let row = 0; row < rows; row += 1) {
    for (let col = 0; col < cols; col += 1) {
      let args: unknown[] | CellError;
      try {
        const values = slots.map((slot, index) => (isLifted(slot) ? slotValue(slot, acceptErrors, row, col) : shared[index]));
        args = packArguments(shape, values);
      } catch (error) {
        if (!(error instanceof ArgumentError)) throw error;
        args = error.error;
      }
      // formatted only for a function that asks for them (20,050-cell model: two strings per call less)
      const addresses = metadata.options.requiresParameterAddresses ? slots.map((slot) => addressOf(slot.input, row, col, isLifted(slot))) : NO_ADDRESSES;
      calls.push({ row, col, args, parameterAddresses: addresses });
    }
  }
  return { kind: "calls", rows, cols, lifted: true, calls };
}

/** The one call of a formula whose arguments lift nothing (a model's =PRICES.MID($A2,B$1)): no grid of calls to lay out. */
function oneCall(shape: ParameterShape, metadata: FunctionMetadata, slots: readonly Slot[], acceptErrors: boolean): Marshalled {
  let args: unknown[];
  try {
    args = packArguments(shape, slots.map((slot) => slotValue(slot, acceptErrors, 0, 0)));
  } catch (error) {
    // an argument's error stops the formula, as in Excel
    if (error instanceof ArgumentError) return { kind: "error", error: error.error };
    throw error;
  }
  const addresses = metadata.options.requiresParameterAddresses ? slots.map((slot) => addressOf(slot.input)) : NO_ADDRESSES;
  return { kind: "calls", rows: 1, cols: 1, lifted: false, calls: [{ row: 0, col: 0, args, parameterAddresses: addresses }] };
}

/** Positional arguments: every declared parameter present (null when omitted), repeating ones gathered into arrays. */
function packArguments(shape: ParameterShape, values: unknown[]): unknown[] {
  const { parameters, firstRepeating } = shape;
  if (firstRepeating < 0) {
    // the values' own array, padded with null for the omitted parameters (no second array per call)
    for (let index = values.length; index < parameters.length; index += 1) values.push(null);
    return values;
  }
  const args: unknown[] = [];
  for (let index = 0; index < firstRepeating; index += 1) args.push(index < values.length ? values[index] : null);
  const group = parameters.length - firstRepeating;
  const gathered: unknown[][] = Array.from({ length: group }, () => []);
  values.slice(firstRepeating).forEach((value, index) => gathered[index % group]?.push(value));
  return [...args, ...gathered];
}
