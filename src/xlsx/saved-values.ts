/**
 * The cached values a file saved, as the proof reads them (src/host/book-saved.ts), and whether they are Excel's at
 * all. A package that asks for a full recalculation on load (`<calcPr fullCalcOnLoad="1"/>`) holds values no Excel
 * computed: the runner sets the flag on every copy it changes, and so do the writers that store no or placeholder
 * values (XlsxWriter's 0, openpyxl, PhpSpreadsheet, ExcelJS when asked); Excel recalculates such a book on open and
 * writes calcPr anew when it saves. A package LibreOffice saved holds LibreOffice's values.
 */
import type { SavedCell } from "../host/book-saved";
import type { WorkbookPackage } from "./package";
import type { SavedLiteral } from "./workbook-file";
import { child, parseXml } from "./xml";

/** A cell's cached value as saved (errors already `{ error }` from the reader), text without the quote the book format adds. */
export function savedCellOf(literal: SavedLiteral | undefined): SavedCell | undefined {
  // the book format quotes text that would read as a formula or a quote (workbook-file.ts literalOf)
  if (typeof literal === "string" && literal.startsWith("'")) return literal.slice(1);
  return literal;
}

/** Why the package's cached values are not Excel's own, or undefined when they are. */
export function whyNotExcelValues(pkg: WorkbookPackage, workbookPart: string): string | undefined {
  const calc = child(parseXml(pkg.text(workbookPart), workbookPart), "calcPr");
  if (/^(1|true)$/i.test(calc?.attributes.fullCalcOnLoad?.trim() ?? "")) {
    return "the file's cached values are not Excel's: it asks for a full recalculation on load (calcPr fullCalcOnLoad), as a copy the runner refreshed and files other tools write do, and Excel has not saved it since";
  }
  const app = pkg.has("docProps/app.xml") ? pkg.text("docProps/app.xml") : "";
  const application = /<(?:\w+:)?Application>([^<]*)</.exec(app)?.[1] ?? "";
  if (/libreoffice|openoffice/i.test(application)) return `the file's cached values are not Excel's: ${application.split("/")[0] ?? application} saved it`;
  return undefined;
}
