/**
 * What a sheet's formulas can name beyond cells: the book's defined names (a sheet's local name before the
 * workbook's, constants such as `TaxRate` = 0.2 included) and its tables' structured references
 * (`Sales[Amount]`, `Sales[[#Totals],[Amount]]`, `[@Qty]`), resolved to expressions and areas the engine reads.
 */
import { parseStructRef } from "@borgar/fx";
import { type CellPosition, type RangeRef, parseRangeAddress, sheetPrefix, formatRangeAddress } from "../formula/a1";
import { type Expression, FormulaSyntaxError, type ReferenceExpression, parseExpression } from "../formula/parse";
import type { DefinedName, TableDefinition } from "./book-names";

interface Table {
  readonly definition: TableDefinition;
  readonly area: RangeRef;
}

export class BookScope {
  private readonly names = new Map<string, Expression>();
  private readonly tables = new Map<string, Table>();

  constructor(names: readonly DefinedName[] = [], tables: readonly TableDefinition[] = []) {
    for (const name of names) this.names.set(key(name.name, name.sheet), definitionOf(name));
    for (const definition of tables) {
      const area = parseRangeAddress(definition.ref);
      if (area) this.tables.set(definition.name.toUpperCase(), { definition, area });
    }
  }

  /** What `name` stands for in a formula on `sheet`: its local definition, else the workbook's, else a table's data. */
  name(name: string, sheet: string): Expression | undefined {
    // `Sheet2!Rate` and `'My Sheet'!Rate`: that sheet's local name, and only it
    const qualified = /^(?:'((?:[^']|'')+)'|([^!']+))!(.+)$/.exec(name);
    if (qualified) return this.names.get(key(qualified[3] ?? "", qualified[1]?.replace(/''/g, "'") ?? qualified[2]));
    const defined = this.names.get(key(name, sheet)) ?? this.names.get(key(name, undefined));
    if (defined) return defined;
    const table = this.tables.get(name.toUpperCase());
    const whole = table ? this.areaOf(table, [], [], undefined, name) : undefined;
    return typeof whole === "string" ? { kind: "unsupported", text: name, reason: whole } : whole;
  }

  /** The area a structured reference covers for a formula at `at` on `sheet`, or why it cannot be read. */
  structured(text: string, sheet: string, at: CellPosition): ReferenceExpression | string {
    const parsed = parseStructRef(text);
    if (!parsed) return `structured reference ${text} cannot be read`;
    const table = !parsed.table ? this.tableAt(sheet, at) : this.tables.get(parsed.table.toUpperCase());
    if (!table) return `structured reference ${text}: the book has no such table`;
    return this.areaOf(table, parsed.columns ?? [], parsed.sections ?? [], at, text);
  }

  private tableAt(sheet: string, at: CellPosition): Table | undefined {
    for (const table of this.tables.values()) {
      const { area } = table;
      if (table.definition.sheet.toLowerCase() === sheet.toLowerCase() && at.row >= area.top && at.row <= area.bottom && at.col >= area.left && at.col <= area.right) return table;
    }
    return undefined;
  }

  private areaOf(table: Table, columns: readonly string[], sections: readonly string[], at: CellPosition | undefined, text: string): ReferenceExpression | string {
    const { definition, area } = table;
    const dataTop = area.top + definition.headerRowCount;
    const dataBottom = area.bottom - definition.totalsRowCount;
    const rows = (section: string): [number, number] | undefined => {
      switch (section) {
        case "all":
          return [area.top, area.bottom];
        case "data":
          return [dataTop, dataBottom];
        case "headers":
          return definition.headerRowCount > 0 ? [area.top, dataTop - 1] : undefined;
        case "totals":
          return definition.totalsRowCount > 0 ? [dataBottom + 1, area.bottom] : undefined;
        case "this row":
          return at && at.row >= dataTop && at.row <= dataBottom ? [at.row, at.row] : undefined;
        default:
          return undefined;
      }
    };
    const spans = (sections.length === 0 ? ["data"] : sections).map(rows);
    if (spans.some((span) => span === undefined)) return `structured reference ${text}: the table has no such rows here`;
    const top = Math.min(...spans.map((span) => span?.[0] ?? 0));
    const bottom = Math.max(...spans.map((span) => span?.[1] ?? 0));
    const index = (column: string): number => definition.columns.findIndex((name) => name.toLowerCase() === column.toLowerCase());
    const picked = columns.map(index);
    if (picked.some((col) => col < 0)) return `structured reference ${text}: the table has no such column`;
    const left = picked.length === 0 ? area.left : area.left + Math.min(...picked);
    const right = picked.length === 0 ? area.right : area.left + Math.max(...picked);
    if (bottom < top) return `structured reference ${text}: the table has no data rows`;
    const range: RangeRef = { top, left, bottom, right };
    return { kind: "reference", text: `${sheetPrefix(definition.sheet)}${formatRangeAddress(range)}`, sheet: definition.sheet, range };
  }
}

function key(name: string, sheet: string | undefined): string {
  return `${(sheet ?? "").toLowerCase()}!${name.toUpperCase()}`;
}

/** A name's definition as an expression; one the host cannot read is left for Excel with the reason. */
function definitionOf(name: DefinedName): Expression {
  try {
    return parseExpression(`=${name.refersTo}`, { wholeRowsAndColumns: false });
  } catch (error) {
    if (!(error instanceof FormulaSyntaxError)) throw error;
    return { kind: "unsupported", text: name.refersTo, reason: `the name ${name.name} (${name.refersTo}) cannot be read` };
  }
}
