/** A date-time cell of an .xlsx as the engine reads it: before 1970 too, the serial of its day plus its time of day. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { readWorkbookFile } from "../../src/xlsx/workbook-file";

describe("date-times read from an .xlsx", () => {
  it("a date-time before 1970 is not read a day early", async () => {
    const dir = mkdtempSync(join(tmpdir(), "prices-xlsx-dates-"));
    try {
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet("Sheet1");
      sheet.getCell("A1").value = new Date(Date.UTC(1960, 0, 1, 18, 0));
      sheet.getCell("A1").numFmt = "yyyy-mm-dd hh:mm";
      sheet.getCell("A2").value = new Date(Date.UTC(2024, 2, 1, 6, 0));
      sheet.getCell("A2").numFmt = "yyyy-mm-dd hh:mm";
      // the runner hands the engine the cells the price cone reads: one price reads both dates
      sheet.getCell("B1").value = { formula: "_xldudf_PRICES_MID(A1,A2)", result: 0 };
      await book.xlsx.writeFile(join(dir, "dates.xlsx"));
      const loaded = await readWorkbookFile(join(dir, "dates.xlsx"));
      const cells = (loaded.sheets[0]?.book as { cells: Record<string, unknown> }).cells;
      expect([cells.A1, cells.A2]).toEqual([21916.75, 45352.25]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
