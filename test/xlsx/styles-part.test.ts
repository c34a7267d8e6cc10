/** Number formats added to a styles part for rich prices written as numbers: cloned cell formats, reuse, and every other byte kept. */
import { parseRangeAddress } from "../../src/formula/a1";
import type { SheetResult } from "../../src/host/page-api";
import { sheetEdits } from "../../src/xlsx/refreshed-copy";
import { rewriteSheet } from "../../src/xlsx/sheet-part";
import { NumberFormatStyles } from "../../src/xlsx/styles-part";
import type { FormulaSource } from "../../src/xlsx/workbook-file";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const USD_MT = '#,##0.00##" USD/MT"';
const styles =
  `<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/></numFmts>` +
  '<fonts count="2"><font/><font><b/></font></fonts><fills count="1"><fill/></fills><borders count="1"><border/></borders>' +
  '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"><alignment horizontal="right"/></xf></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

describe("NumberFormatStyles", () => {
  it("adds the format once and a cell format cloned from the cell's own, keeping its font and alignment", () => {
    const part = new NumberFormatStyles(styles, "xl/styles.xml");
    expect(part.styleFor("1", USD_MT)).toBe("2");
    expect(part.styleFor("1", USD_MT)).toBe("2");
    expect(part.styleFor(undefined, USD_MT)).toBe("3");
    expect(part.styleFor("0", '#,##0.00##" EUR/MT"')).toBe("4");
    expect(part.text()).toBe(
      styles
        .replace(
          '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/></numFmts>',
          '<numFmts count="3"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/><numFmt numFmtId="165" formatCode="#,##0.00##&quot; USD/MT&quot;"/><numFmt numFmtId="166" formatCode="#,##0.00##&quot; EUR/MT&quot;"/></numFmts>',
        )
        .replace(
          '<cellXfs count="2">',
          '<cellXfs count="5">',
        )
        .replace(
          "</xf></cellXfs>",
          '</xf><xf numFmtId="165" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyNumberFormat="1"><alignment horizontal="right"/></xf>' +
            '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>',
        ),
    );
  });

  it("adds nothing to a part that already has the format and cell format (a refreshed copy refreshed again)", () => {
    const first = new NumberFormatStyles(styles, "xl/styles.xml");
    const style = first.styleFor(undefined, USD_MT);
    const again = new NumberFormatStyles(first.text(), "xl/styles.xml");
    expect(again.styleFor(style, USD_MT)).toBe(style);
    expect(again.styleFor(undefined, USD_MT)).toBe(style);
    expect(again.changed).toBe(false);
    expect(again.text()).toBe(first.text());
  });

  it("creates numFmts where the part has none, and a prefixed part keeps its prefix", () => {
    const prefixed = `<x:styleSheet xmlns:x="${MAIN}"><x:fonts count="1"><x:font/></x:fonts><x:cellXfs count="1"><x:xf numFmtId="0" fontId="0"/></x:cellXfs></x:styleSheet>`;
    const part = new NumberFormatStyles(prefixed, "xl/styles.xml");
    expect(part.styleFor(undefined, USD_MT)).toBe("1");
    expect(part.text()).toBe(
      `<x:styleSheet xmlns:x="${MAIN}"><x:numFmts count="1"><x:numFmt numFmtId="164" formatCode="#,##0.00##&quot; USD/MT&quot;"/></x:numFmts><x:fonts count="1"><x:font/></x:fonts>` +
        '<x:cellXfs count="2"><x:xf numFmtId="0" fontId="0"/><x:xf numFmtId="164" fontId="0" applyNumberFormat="1"/></x:cellXfs></x:styleSheet>',
    );
  });
});

describe("rich prices in the refreshed sheet", () => {
  const result = (values: SheetResult["values"], dataTypes: SheetResult["dataTypes"]): SheetResult => ({
    name: "Model",
    values,
    spills: [{ anchor: "A1", area: "A1:A2" }],
    dataTypes,
  });
  const card = { title: "X", sections: [] };

  it("gives a rich price's cells its number format, a plain number or a rich error none", () => {
    const formulas = new Map<string, FormulaSource>([
      ["A1", { text: 'PRICES.HISTORY("X")', callsPrices: true, array: { area: parseRangeAddress("A1:A2") ?? { top: 0, left: 0, bottom: 0, right: 0 }, dynamic: true } }],
      ["B1", { text: 'PRICES.MID("X")', callsPrices: true }],
      ["C1", { text: "1+1", callsPrices: false }],
    ]);
    const { edits } = sheetEdits(
      formulas,
      result({ A1: 10, A2: 11, B1: { kind: "error", code: "#N/A" }, C1: 2 }, { A1: { type: "Double", numberFormat: USD_MT, card }, A2: { type: "Double", numberFormat: USD_MT, card }, B1: { type: "Double", numberFormat: USD_MT, card } }),
      false,
    );
    expect(edits.get("A1")).toEqual({ kind: "result", value: 10, ref: "A1:A2", numberFormat: USD_MT });
    expect(edits.get("A2")).toEqual({ kind: "result", value: 11, numberFormat: USD_MT });
    expect(edits.get("B1")).toEqual({ kind: "result", value: { kind: "error", code: "#N/A" } });
    expect(edits.get("C1")).toEqual({ kind: "result", value: 2 });
    const frozen = sheetEdits(formulas, result({ A1: 10, A2: 11, B1: 3, C1: 2 }, { B1: { type: "Double", numberFormat: USD_MT, card } }), true);
    expect(frozen.edits.get("B1")).toEqual({ kind: "freeze", value: 3, numberFormat: USD_MT });
  });

  it("sets the style of a rewritten cell and of a new cell from the format, keeping every other byte", () => {
    const sheet = `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" s="1"><f>PRICES.MID("X")</f><v>1</v></c><c r="B1"><v>5</v></c></row></sheetData></worksheet>`;
    const asked: [string | undefined, string][] = [];
    const restyle = (current: string | undefined, format: string): string => {
      asked.push([current, format]);
      return current === undefined ? "7" : "8";
    };
    const out = rewriteSheet(
      sheet,
      "sheet1.xml",
      new Map([
        ["A1", { kind: "result" as const, value: 2, numberFormat: USD_MT }],
        ["C1", { kind: "result" as const, value: 3, numberFormat: USD_MT }],
      ]),
      undefined,
      restyle,
    );
    expect(out).toBe(sheet.replace('<c r="A1" s="1"><f>PRICES.MID("X")</f><v>1</v></c>', '<c r="A1" s="8"><f>PRICES.MID("X")</f><v>2</v></c>').replace("<v>5</v></c>", '<v>5</v></c><c r="C1" s="7"><v>3</v></c>'));
    expect(asked).toEqual([
      ["1", USD_MT],
      [undefined, USD_MT],
    ]);
  });
});
