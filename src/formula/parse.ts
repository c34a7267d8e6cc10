/**
 * The one reader of formula text. @borgar/fx tokenizes and parses Excel's grammar (operators, nested calls,
 * references, spill references `A1#`, array constants); this module narrows its tree into the project's own
 * `Expression`, which the host evaluates. `parseFormula` is the pane's view of the same tree: a formula that is
 * one call whose arguments are constants, references or empty.
 */
import { parse as parseTokens, tokenize, type AstExpression } from "@borgar/fx";
import { readReference, type RangeRef } from "./a1";
import { fieldAccessOf } from "./field-access";
import { type QuickShape, type Template, filled, quickShape, templatesOf } from "./quick-shape";

/** A constant as a formula writes it. */
export type Scalar = number | string | boolean;

export interface ReferenceExpression {
  readonly kind: "reference";
  /** As written, e.g. `Sheet1!$A$1:B2`. */
  readonly text: string;
  readonly sheet?: string;
  readonly range: RangeRef;
  readonly whole?: "columns" | "rows";
  /** `A1#`: the spill of the formula anchored at the range's top-left cell. */
  readonly spill?: true;
}

export type Expression =
  | { readonly kind: "literal"; readonly value: Scalar }
  | { readonly kind: "error"; readonly code: string }
  | { readonly kind: "missing" }
  | ReferenceExpression
  | { readonly kind: "name"; readonly name: string }
  | { readonly kind: "array"; readonly rows: readonly (readonly Scalar[])[] }
  | { readonly kind: "call"; readonly name: string; readonly args: readonly Expression[] }
  | { readonly kind: "unary"; readonly operator: string; readonly operand: Expression }
  | { readonly kind: "binary"; readonly operator: string; readonly left: Expression; readonly right: Expression }
  /** `LET(x, 2, x*3)` (names without the `_xlpm.` files give them). */
  | { readonly kind: "let"; readonly bindings: readonly { readonly name: string; readonly value: Expression }[]; readonly body: Expression }
  /** A structured reference (`Table1[Price]`, `[@Qty]`), resolved against the book's tables. */
  | { readonly kind: "table"; readonly text: string }
  /** Valid Excel the host does not evaluate (LAMBDA, reference operators, external links): the formula is left for Excel. */
  | { readonly kind: "unsupported"; readonly text: string; readonly reason: string }
  /** `A2.Mid`: a field of the data type a cell holds (src/host/rich-cells.ts reads it). */
  | { readonly kind: "field"; readonly target: ReferenceExpression; readonly field: string };

export type FormulaArgument =
  | { readonly kind: "missing" }
  | { readonly kind: "literal"; readonly value: Scalar }
  | { readonly kind: "array"; readonly rows: readonly (readonly Scalar[])[] }
  | { readonly kind: "reference"; readonly range: RangeRef; readonly text: string; readonly whole?: "columns" | "rows" }
  /** A rolling date: `TODAY()`, `TODAY()-365`, `TODAY()+7` (whole days). */
  | { readonly kind: "today"; readonly offsetDays: number };

export interface FormulaCall {
  /** As written, e.g. `PRICES.MID`. */
  readonly name: string;
  readonly args: readonly FormulaArgument[];
}

export interface ParseOptions {
  /** Whether `A:C` and `1:3` are accepted (default true); a reader that walks every referenced cell says false. */
  readonly wholeRowsAndColumns?: boolean;
}

export class FormulaSyntaxError extends Error {
  override readonly name = "FormulaSyntaxError";
  constructor(
    readonly formula: string,
    detail: string,
  ) {
    super(`${detail} in ${formula}`);
  }
}

const NUMBER_LITERAL = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/** Whether `text` is a number as a formula or a typed cell writes it (`-1.5`, `.5`, `2e3`). */
export function isNumberLiteral(text: string): boolean {
  return NUMBER_LITERAL.test(text);
}

/** Parses `=expression`; throws FormulaSyntaxError for text that is not an Excel formula or uses what the host cannot run. */
export function parseExpression(formula: string, options: ParseOptions = {}): Expression {
  return narrow(parseTree(formula, formulaTokens(formula)), formula, options.wholeRowsAndColumns ?? true);
}

type Token = ReturnType<typeof tokenize>[number];

/** The tokens of `=expression` (without the `=`); throws FormulaSyntaxError for text that is not a formula. */
function formulaTokens(formula: string): Token[] {
  return tokenize(formulaBody(formula));
}

/** The text after `=`, which the tokenizer reads; throws FormulaSyntaxError for text that is not a formula. */
function formulaBody(formula: string): string {
  const text = formula.trim();
  if (!text.startsWith("=")) throw new FormulaSyntaxError(formula, "a formula starts with =");
  if (text.slice(1).trim() === "") throw new FormulaSyntaxError(formula, "the formula is empty");
  return text.slice(1);
}

function parseTree(formula: string, tokens: Token[]): AstExpression {
  try {
    return parseTokens(tokens, { permitArrayRanges: false, permitArrayCalls: false });
  } catch {
    throw new FormulaSyntaxError(formula, syntaxProblem(formula.trim().slice(1)));
  }
}

/** Reference tokens a shape leaves open, with the kind the parser gives them. */
const SLOT_KINDS: Readonly<Record<string, string>> = { range: "range", range_beam: "beam" };

/** A parsed shape: its tree, and the reference nodes in it that stand for the shape's open reference tokens, in order. */
interface Shape {
  readonly tree: Expression;
  readonly slots: readonly ReferenceExpression[];
}

/**
 * A parser for the formulas of one book: formulas that differ only in their cell references (`=B2/A2-1` down a
 * column, `=PRICES.MID($A2,B$1)` across a grid) have one shape, parsed once; each formula gets that tree with its own
 * references (20,050-cell model: 19,800 formulas, 2 shapes). Gives what `parseExpression` gives, errors included.
 */
export function shapeParser(options: ParseOptions = {}): (formula: string) => Expression {
  const wholeLines = options.wholeRowsAndColumns ?? true;
  /** By shape key; null for a shape that cannot be shared (its references are not plain leaves of the tree). */
  const shapes = new Map<string, Shape | null>();
  /** By the key read off the text (quick-shape.ts): the shape, and each of its reference tokens as slots and text. */
  const quick = new Map<string, { shape: Shape; templates: Template[] } | null>();
  /** The tree of a formula whose text-read key was seen: no tokenizer (19,800 of the bench model's 19,800 formulas). */
  const known = (formula: string, body: string, read: QuickShape): Expression | undefined => {
    const seen = quick.get(read.key);
    if (!seen) return undefined;
    // a loop, not a map and an every with their closures, for each of 20,000 formulas (every template read, as before)
    const references: ReferenceExpression[] = [];
    let plain = true;
    for (const template of seen.templates) {
      const reference = cellReference(template, read, body) ?? narrowReference(filled(template, read, body), "range", formula, wholeLines);
      if (reference.kind === "reference") references.push(reference);
      else plain = false;
    }
    return plain ? withReferences(seen.shape.tree, seen.shape.slots, references) : undefined;
  };
  return (formula) => {
    const body = formulaBody(formula);
    const read = quickShape(body);
    const fast = read === undefined ? undefined : known(formula, body, read);
    if (fast) return fast;
    const tokens = tokenize(body);
    const slotTokens: Token[] = [];
    let key = "";
    for (const token of tokens) {
      // each value with its length: no text inside a string constant can make two shapes one key
      if (SLOT_KINDS[token.type] === undefined) key += `${token.type}\u0001${token.value.length}:${token.value}\u0002`;
      else {
        slotTokens.push(token);
        key += `${token.type}\u0002`;
      }
    }
    const shape = shapes.get(key);
    if (shape) {
      const references = slotTokens.map((token) => narrowReference(token.value, SLOT_KINDS[token.type] ?? "range", formula, wholeLines));
      if (references.every((reference): reference is ReferenceExpression => reference.kind === "reference")) {
        return withReferences(shape.tree, shape.slots, references);
      }
    }
    const tree = narrow(parseTree(formula, tokens), formula, wholeLines);
    if (shape === undefined) shapes.set(key, shapeOf(tree, slotTokens.map((token) => token.value)));
    if (read !== undefined && !quick.has(read.key)) quick.set(read.key, quickEntry(shapes.get(key), read, body, tokens));
    return tree;
  };
}

/**
 * The reference a template makes when it is one slot alone (`$A2`): the cell quickShape read there, as narrowReference
 * reads it (no sheet, no whole lines, inside the sheet), without reading its text again; undefined for any other template.
 */
function cellReference(template: Template, read: QuickShape, body: string): ReferenceExpression | undefined {
  if (template.length !== 1) return undefined;
  const slot = template[0];
  if (typeof slot !== "number") return undefined;
  const span = read.slots[slot];
  const cell = read.cells[slot];
  if (span === undefined || cell === undefined) return undefined;
  return referenceNode(body.slice(span[0], span[1]), { top: cell.row, left: cell.col, bottom: cell.row, right: cell.col }, undefined, undefined);
}

/** What the text-read key stands for: the token shape, with where its reference tokens lie in terms of the slots. */
function quickEntry(shape: Shape | null | undefined, read: QuickShape, body: string, tokens: readonly Token[]): { shape: Shape; templates: Template[] } | null {
  if (!shape) return null;
  const spans: (readonly [number, number])[] = [];
  let at = 0;
  for (const token of tokens) {
    if (SLOT_KINDS[token.type] !== undefined) spans.push([at, at + token.value.length]);
    at += token.value.length;
  }
  // the tokens must be the body's every character, in order, for the positions to hold
  if (at !== body.length) return null;
  const templates = templatesOf(read, body, spans);
  return templates === undefined ? null : { shape, templates };
}

/** The tree as a shape when its references are exactly the open tokens, in order and each once; else null. */
function shapeOf(tree: Expression, slotValues: readonly string[]): Shape | null {
  const references: ReferenceExpression[] = [];
  // Whether the subtree can be shared (no field access, nothing unsupported); collects the references on the way.
  const walk = (node: Expression): boolean => {
    switch (node.kind) {
      case "reference":
        references.push(node);
        return true;
      case "call":
        return node.args.every(walk);
      case "unary":
        return walk(node.operand);
      case "binary":
        return walk(node.left) && walk(node.right);
      case "let":
        return node.bindings.every((binding) => walk(binding.value)) && walk(node.body);
      case "field":
      case "unsupported":
        return false;
      default:
        return true;
    }
  };
  const shareable = walk(tree);
  const distinct = new Set(slotValues).size === slotValues.length;
  const matches = references.length === slotValues.length && references.every((reference, index) => reference.text === slotValues[index]);
  return shareable && distinct && matches ? { tree, slots: references } : null;
}

/**
 * A copy of `node` with each of the shape's `slots` swapped for the reference at its index in `replace`; every other
 * node is shared (trees are never changed). Two lists, not a Map made for each of 20,000 formulas.
 */
function withReferences(node: Expression, slots: readonly Expression[], replace: readonly ReferenceExpression[]): Expression {
  switch (node.kind) {
    case "reference": {
      const index = slots.indexOf(node);
      return index < 0 ? node : (replace[index] ?? node);
    }
    case "call": {
      const args: Expression[] = [];
      for (const arg of node.args) args.push(withReferences(arg, slots, replace));
      return { ...node, args };
    }
    case "unary":
      return { ...node, operand: withReferences(node.operand, slots, replace) };
    case "binary":
      return { ...node, left: withReferences(node.left, slots, replace), right: withReferences(node.right, slots, replace) };
    case "let":
      return {
        ...node,
        bindings: node.bindings.map((binding) => ({ name: binding.name, value: withReferences(binding.value, slots, replace) })),
        body: withReferences(node.body, slots, replace),
      };
    default:
      return node;
  }
}

/** What is wrong with text the parser refused, in the words Excel's own message would use where it can tell. */
function syntaxProblem(body: string): string {
  let depth = 0;
  let quoted = false;
  for (const char of body) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === "(") depth += 1;
    else if (!quoted && char === ")") depth -= 1;
    if (depth < 0) return "a ) without its (";
  }
  if (quoted) return "unterminated text";
  if (depth > 0) return "missing )";
  return "invalid syntax";
}

function fail(formula: string, detail: string): never {
  throw new FormulaSyntaxError(formula, detail);
}

function narrow(node: AstExpression | null, formula: string, wholeLines: boolean): Expression {
  if (node === null) return { kind: "missing" };
  switch (node.type) {
    case "Literal":
      return { kind: "literal", value: node.value };
    case "ErrorLiteral":
      return { kind: "error", code: node.value.toUpperCase() };
    case "ReferenceIdentifier":
      return narrowReference(node.value, node.kind, formula, wholeLines);
    case "ArrayExpression":
      if (node.elements.some((row) => row.length !== node.elements[0]?.length)) fail(formula, "array rows differ in length");
      return {
        kind: "array",
        rows: node.elements.map((row) =>
          row.map((element): Scalar => {
            if (element.type === "Literal") return element.value;
            return fail(formula, "an array constant holds only numbers, text and TRUE/FALSE");
          }),
        ),
      };
    case "CallExpression": {
      // fx types the callee as an Identifier, but `LAMBDA(x, x+1)(2)` calls a LambdaExpression
      const callee: { readonly type: string } = node.callee;
      if (callee.type !== "Identifier") return { kind: "unsupported", text: formula, reason: "LAMBDA is not supported" };
      const args = node.arguments.map((arg) => narrow(arg, formula, wholeLines));
      if (/^(?:_xlfn\.)?LET$/i.test(node.callee.name)) return letOf(args, formula);
      return { kind: "call", name: node.callee.name, args };
    }
    case "LetExpression":
      return {
        kind: "let",
        bindings: node.declarations.map((declaration) => ({ name: bareName(declaration.id.name), value: narrow(declaration.init, formula, wholeLines) })),
        body: narrow(node.body, formula, wholeLines),
      };
    case "LambdaExpression":
      return { kind: "unsupported", text: formula, reason: "LAMBDA is not supported" };
    case "UnaryExpression": {
      const [operand] = node.arguments;
      if (node.operator === "#") {
        const inner = operand ? narrow(operand, formula, wholeLines) : undefined;
        if (inner?.kind !== "reference" || inner.spill) return fail(formula, "# follows a cell reference (A1#)");
        return { ...inner, text: `${inner.text}#`, spill: true };
      }
      return { kind: "unary", operator: node.operator, operand: narrow(operand ?? null, formula, wholeLines) };
    }
    case "BinaryExpression": {
      const [left, right] = node.arguments;
      if ([":", " ", ","].includes(node.operator)) return { kind: "unsupported", text: formula, reason: `the reference operator '${node.operator === " " ? "space" : node.operator}' is not supported` };
      return { kind: "binary", operator: node.operator, left: narrow(left ?? null, formula, wholeLines), right: narrow(right ?? null, formula, wholeLines) };
    }
  }
}

/** `_xlfn.LET(_xlpm.x, 2, _xlpm.x*3)` as files store LET: names and values in turn, the body last. */
function letOf(args: readonly Expression[], formula: string): Expression {
  const body = args[args.length - 1];
  if (args.length < 3 || args.length % 2 === 0 || body === undefined) throw new FormulaSyntaxError(formula, "LET takes names and values in pairs, then a calculation");
  const bindings: { name: string; value: Expression }[] = [];
  for (let index = 0; index + 1 < args.length; index += 2) {
    const name = args[index];
    const value = args[index + 1];
    if (name?.kind !== "name" || value === undefined) throw new FormulaSyntaxError(formula, "LET names must be plain names");
    bindings.push({ name: name.name, value });
  }
  return { kind: "let", bindings, body };
}

/** A name without the `_xlpm.` prefix files give LET and LAMBDA parameters. */
function bareName(name: string): string {
  return name.replace(/^_xlpm\./i, "");
}

function narrowReference(written: string, kind: string, formula: string, wholeLines: boolean): Expression {
  const access = kind === "name" || kind === "table" ? fieldAccessOf(written) : undefined;
  if (access) return { kind: "field", target: narrowReference(access.target, "range", formula, wholeLines) as ReferenceExpression, field: access.field };
  if (kind === "name") return { kind: "name", name: bareName(written) };
  if (kind === "table") return { kind: "table", text: written };
  if (/^'?\[/.test(written)) return { kind: "unsupported", text: formula, reason: `external link ${/^'?(\[[^\]]*\])/.exec(written)?.[1] ?? ""}` };
  const read = readReference(written, 0);
  if (!read || read.text.length !== written.length) throw new FormulaSyntaxError(formula, `unsupported reference ${written}`);
  if (read.range === undefined) throw new FormulaSyntaxError(formula, `reference outside the sheet: ${written}`);
  if (read.whole !== undefined && !wholeLines) return { kind: "unsupported", text: formula, reason: `whole rows and columns are not supported: ${written}` };
  const bang = written.lastIndexOf("!");
  const sheetText = bang < 0 ? undefined : written.slice(0, bang);
  const sheet = sheetText === undefined ? undefined : (/^'(.*)'$/.exec(sheetText)?.[1]?.replace(/''/g, "'") ?? sheetText);
  return referenceNode(written, read.range, sheet, read.whole);
}

/** A reference node, made one way for every reader of a reference (one object shape for the engine's code to meet). */
function referenceNode(text: string, range: RangeRef, sheet: string | undefined, whole: "columns" | "rows" | undefined): ReferenceExpression {
  // the common node as a literal (no two empty objects spread into each of 40,000); every path makes it here, so one hidden class
  if (sheet === undefined && whole === undefined) return { kind: "reference", text, range };
  return {
    kind: "reference",
    text,
    range,
    ...(sheet === undefined ? {} : { sheet }),
    ...(whole === undefined ? {} : { whole }),
  };
}

/**
 * Reads a formula that is one call whose arguments are constants (a negative number included), array constants,
 * references, rolling dates (`TODAY()-365`) or empty, as the pane traces `=PRICES.MID(A2, "2024-03-01")`; throws
 * FormulaSyntaxError otherwise.
 */
export function parseFormula(formula: string, options: ParseOptions = {}): FormulaCall {
  const expression = parseExpression(formula, options);
  if (expression.kind !== "call") throw new FormulaSyntaxError(formula, "expected one function call");
  return { name: expression.name, args: expression.args.map((arg) => simpleArgument(arg, formula)) };
}

/** `TODAY()` alone, or plus or minus a whole number of days: its offset; undefined for anything else. */
function todayOffset(arg: Expression): number | undefined {
  const isToday = (inner: Expression): boolean => inner.kind === "call" && inner.name.toUpperCase() === "TODAY" && inner.args.length === 0;
  if (isToday(arg)) return 0;
  if (arg.kind !== "binary" || (arg.operator !== "-" && arg.operator !== "+") || !isToday(arg.left)) return undefined;
  const days = arg.right.kind === "literal" ? arg.right.value : undefined;
  if (typeof days !== "number" || !Number.isInteger(days)) return undefined;
  return arg.operator === "-" ? -days : days;
}

function simpleArgument(arg: Expression, formula: string): FormulaArgument {
  const offsetDays = todayOffset(arg);
  if (offsetDays !== undefined) return { kind: "today", offsetDays };
  switch (arg.kind) {
    case "missing":
    case "literal":
    case "array":
      return arg;
    case "reference":
      if (arg.spill) break;
      return arg.whole === undefined ? { kind: "reference", range: arg.range, text: arg.text } : { kind: "reference", range: arg.range, text: arg.text, whole: arg.whole };
    case "unsupported":
      throw new FormulaSyntaxError(formula, arg.reason);
    case "unary":
      if ((arg.operator === "-" || arg.operator === "+") && arg.operand.kind === "literal" && typeof arg.operand.value === "number") {
        return { kind: "literal", value: arg.operator === "-" ? -arg.operand.value : arg.operand.value };
      }
      break;
    default:
      break;
  }
  throw new FormulaSyntaxError(formula, "expected text in quotes, a number, TRUE/FALSE, a cell reference or a range as an argument");
}
