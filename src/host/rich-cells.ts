/**
 * Data-type cells in the host (the workbench and the headless runner), as Excel keeps them: a function's
 * Excel.DoubleCellValue or Excel.EntityCellValue stays in its cell with the record, while every reference to
 * the cell reads its plain value (a number for a price, the text for an entity), so arithmetic is as on plain
 * numbers. `A2.Mid` reads a field; a card lists them; a file gets the plain value and its number format.
 */
import { isRichValue, type RichProperty, type RichValue } from "../functions/data-types";
import type { ReferenceExpression } from "../formula/parse";
import type { DateSystem } from "../formula/excel-dates";
import { formatNumber } from "./number-format";
import { type Value, arrayOf } from "./value-array";
import { type CellError, type CellValue, type Scalar, cellError, isCellError } from "./values";

export interface RichCell {
  readonly kind: "rich";
  /** What a reference to the cell reads: the number, or the entity's text. */
  readonly basic: Scalar | CellError;
  readonly value: RichValue;
}

/** A cell of a function's result: a plain value, or a data type with its plain value. */
export type ResultCell = CellValue | RichCell;

export function isRichCell(cell: unknown): cell is RichCell {
  return typeof cell === "object" && cell !== null && (cell as { kind?: unknown }).kind === "rich";
}

/** A function's returned element, when it is a data type the host knows. */
export function richCellOf(value: unknown): RichCell | undefined {
  if (!isRichValue(value)) return undefined;
  if (value.type === "Entity") return { kind: "rich", basic: value.text, value };
  return { kind: "rich", basic: Number.isFinite(value.basicValue) ? value.basicValue : cellError("#NUM!"), value };
}

/** The plain value every reference and worksheet function reads. */
export function plainOf(cell: ResultCell): CellValue {
  return isRichCell(cell) ? cell.basic : cell;
}

function propertyValue(property: RichProperty): Scalar {
  return property.basicValue;
}

function propertiesOf(value: RichValue): Record<string, RichProperty> {
  return value.properties ?? {};
}

/** `=A2.Mid`: the field's plain value (names without case); a cell without that field is Excel's #FIELD!, shown here as #VALUE! with why. */
export function fieldOf(cell: ResultCell, field: string): CellValue {
  if (isCellError(cell)) return cell;
  if (!isRichCell(cell)) return cellError("#VALUE!", `#FIELD!: the cell holds no data type, so it has no field '${field}'`);
  const properties = propertiesOf(cell.value);
  const name = Object.keys(properties).find((key) => key.toLowerCase() === field.toLowerCase());
  const property = name === undefined ? undefined : properties[name];
  if (property === undefined) return cellError("#VALUE!", `#FIELD!: no field '${field}'; fields: ${Object.keys(properties).join(", ")}`);
  return propertyValue(property);
}

/** One line of a card: the field's name, its plain value and the number format it shows with. */
export interface CardField {
  readonly name: string;
  readonly value: Scalar;
  readonly numberFormat?: string;
}

export interface CardSectionView {
  readonly title?: string;
  readonly fields: readonly CardField[];
}

/** What a card shows, in the order the value's layout gives (a number's card: its properties in order). */
export interface CardView {
  readonly title: string;
  readonly subtitle?: string;
  readonly sections: readonly CardSectionView[];
}

function cardField(name: string, property: RichProperty | undefined): CardField[] {
  if (property === undefined) return [];
  const numberFormat = property.type === "Double" ? property.numberFormat : undefined;
  return [numberFormat === undefined ? { name, value: property.basicValue } : { name, value: property.basicValue, numberFormat }];
}

export function cardOf(cell: RichCell): CardView {
  const value = cell.value;
  const properties = propertiesOf(value);
  if (value.type === "Double") {
    const symbol = properties.Symbol?.basicValue;
    return {
      title: typeof symbol === "string" ? symbol : String(value.basicValue),
      sections: [{ fields: [...cardField("Value", { type: "Double", basicValue: value.basicValue, ...(value.numberFormat ? { numberFormat: value.numberFormat } : {}) }), ...Object.keys(properties).flatMap((name) => cardField(name, properties[name]))] }],
    };
  }
  const card = value.layouts.card;
  const subtitle = card.subTitle ? properties[card.subTitle.property]?.basicValue : undefined;
  const title = properties[card.title.property]?.basicValue;
  return {
    title: typeof title === "string" ? title : value.text,
    ...(typeof subtitle === "string" ? { subtitle } : {}),
    sections: card.sections.map((section) => ({
      ...(section.title === undefined ? {} : { title: section.title }),
      fields: section.properties.flatMap((name) => cardField(name, properties[name])),
    })),
  };
}

/** What a file stores for a cell: its plain value and, for a formatted number, the format (the runner writes these). */
export interface StoredCell {
  readonly value: CellValue;
  readonly numberFormat?: string;
}

/** The .xlsx writer's view of a result cell: a data type becomes its plain value with its number format. */
export function storedCellOf(cell: ResultCell): StoredCell {
  if (!isRichCell(cell)) return { value: cell };
  const format = cell.value.type === "Double" ? cell.value.numberFormat : undefined;
  return format === undefined ? { value: cell.basic } : { value: cell.basic, numberFormat: format };
}

/** A function's grid as plain values (what an enclosing expression computes with). */
export function plainGrid(grid: readonly (readonly ResultCell[])[]): CellValue[][] {
  return grid.map((row) => row.map(plainOf));
}

/** The cells a reference covers, data types included, or why they cannot be read. */
export type CellsReader = (reference: ReferenceExpression) => readonly (readonly ResultCell[])[] | CellError;

/** `A2.Mid` (or `A2:A5.Mid`, cell by cell): the field of each cell the reference covers. */
export function fieldValue(reference: ReferenceExpression, field: string, cells: CellsReader | undefined): Value {
  if (cells === undefined) return cellError("#VALUE!", `${reference.text}.${field}: this host reads no fields`);
  const read = cells(reference);
  if (isCellError(read)) return read;
  const rows = read.map((row) => row.map((cell) => fieldOf(cell, field)));
  return rows.length === 1 && rows[0]?.length === 1 ? (rows[0][0] ?? null) : arrayOf(rows);
}

/** What a data-type cell shows: a price through its number format, an entity its text; undefined for a plain cell. */
export function richText(cell: ResultCell, system: DateSystem = "1900"): string | undefined {
  if (!isRichCell(cell)) return undefined;
  if (cell.value.type === "Entity") return cell.value.text;
  return formatNumber(cell.value.basicValue, cell.value.numberFormat, system);
}

/** A card field's text, as Excel's card shows it. */
export function cardFieldText(field: CardField, system: DateSystem = "1900"): string {
  if (typeof field.value === "number") return formatNumber(field.value, field.numberFormat, system);
  if (typeof field.value === "boolean") return field.value ? "TRUE" : "FALSE";
  return field.value;
}

/** What the headless host reports of a data-type cell: its number format (for the .xlsx writer) and its card. */
export interface DataTypeCell {
  readonly type: "Double" | "Entity";
  readonly numberFormat?: string;
  readonly card: CardView;
}

/** The data-type cells among `addresses`, by address (the runner's JSON and the .xlsx writer read these). */
export function dataTypeCells(addresses: readonly string[], cellAt: (address: string) => ResultCell): Record<string, DataTypeCell> {
  const out: Record<string, DataTypeCell> = {};
  for (const address of addresses) {
    const cell = cellAt(address);
    if (!isRichCell(cell)) continue;
    const format = storedCellOf(cell).numberFormat;
    out[address] = format === undefined ? { type: cell.value.type, card: cardOf(cell) } : { type: cell.value.type, numberFormat: format, card: cardOf(cell) };
  }
  return out;
}
