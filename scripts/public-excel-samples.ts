/**
 * IRR and RATE values Excel itself computed and saved, from public files outside the corpus: more cases to tell the
 * candidate search paths apart (scripts/solver-candidates.ts). Each is the cached value of a formula cell of a file whose
 * docProps/app.xml names Microsoft Excel, copied here as the saved double's bits (nothing is fetched when this runs), with
 * its inputs as saved in the same file. Only Excel 2010 and later: Excel 2003's IRR stops elsewhere (the same workbook
 * saved by Excel 2003, apache/poi test-data/spreadsheet/IrrNpvTestCaseData.xls, holds other values for the same cells).
 *   sheetjs: SheetJS/test_files 15d10e8eba67bafd07a406b3345c9309739b5da1, 2013/apachepoi_IrrNpvTestCaseData.xls.xlsb
 *     (Apache POI's IrrNpvTestCaseData.xls resaved by Excel 15.0, 2014), sheet IRR-NPV; the same repository's
 *     2011/apachepoi_IrrNpvTestCaseData.xls.xml (SpreadsheetML from Excel 14.0 for Mac) holds the same 17 digits.
 *   formulas: vinci1it2000/formulas 02370b07d1bd968ccaa8c937f3fdeea74ad4c789, test/test_files/test.xlsx (Microsoft
 *     Macintosh Excel 16.03, 2025), sheet FINANCIAL; its flows are array constants or C27:G27 = -0.1, 2, 0, 4, 5.
 *   phpspreadsheet: PHPOffice/PhpSpreadsheet a2282ecb79ccb0feda8cbbd5a824b369c615d466, tests/data/Reader/XLS/formulas.xls
 *     (Microsoft Excel 16.0), Sheet1; C3:E3 = 1, -1, -2.
 *   poi: apache/poi bcfb8f235f5d9c2170829504bbee7f1dd8a6b34c, test-data/spreadsheet/mirrTest.xls (Excel 14.0, 2013), sheet Mirr.
 * Left out: TRUNC(IRR(...),4) cells (4 digits), formulas' AG26 and AH27 (a range as the guess), SheetJS's
 * formula_stress_test (the same inputs as above, or RATE(...)*12), and XIRR (no path is followed for it).
 */

/** A solver's case: IRR's flows, or RATE's nper, pmt, pv, fv, type and guess; Excel's saved value as the double's 16 hex digits. */
export interface PublicSample {
  readonly at: string;
  readonly inputs: readonly number[];
  readonly guess: number;
  readonly bits: string;
}

const bytes = (hex: string): Uint8Array => Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));

/** The double whose IEEE 754 bits (big-endian) are `hex`. */
export const doubleOf = (hex: string): number => new DataView(bytes(hex).buffer).getFloat64(0);

export const PUBLIC_IRR: readonly PublicSample[] = [
  { at: "sheetjs IRR-NPV!A10 IRR(A2:A6)", inputs: [-70000, 12000, 15000, 18000, 21000], guess: 0.1, bits: "bf95c135a22bcf00" },
  { at: "sheetjs IRR-NPV!A11 IRR(A2:A7)", inputs: [-70000, 12000, 15000, 18000, 21000, 26000], guess: 0.1, bits: "3fb62d7220a36a20" },
  { at: "sheetjs IRR-NPV!A13 IRR(A2:A7,5%)", inputs: [-70000, 12000, 15000, 18000, 21000, 26000], guess: 0.05, bits: "3fb62d7220a36cc0" },
  { at: "sheetjs IRR-NPV!A14 IRR(A2:A4,-10%)", inputs: [-70000, 12000, 15000], guess: -0.1, bits: "bfdc626af0253a8c" },
  { at: "sheetjs IRR-NPV!A15 IRR(A2:A4,irr_guess)", inputs: [-70000, 12000, 15000], guess: -0.05, bits: "bfdc626af0253a4a" },
  { at: "formulas FINANCIAL!R27", inputs: [-7, 2, -1, 4, -3, 7, 2, -1, 4, 4], guess: 0.1, bits: "3fc86e40a96d4d28" },
  { at: "formulas FINANCIAL!T26", inputs: [-7, 2, 1, 4, -3, -7, 2, -1, 4, 4], guess: 7, bits: "bf95a20ea2d16700" },
  { at: "formulas FINANCIAL!T27", inputs: [-7, 2, 1, 4, -3, -7, 2, -1, 4, 4], guess: 0, bits: "bf95a20ea2d19560" },
  { at: "formulas FINANCIAL!U26", inputs: [-7, 2, -1, 4, -3, 7, 2, 1, 4], guess: 4, bits: "3fc73e383c897250" },
  { at: "formulas FINANCIAL!V26 IRR(C27:E27,G26)", inputs: [-0.1, 2, 0], guess: 9, bits: "4032fffffffffffb" },
  { at: "formulas FINANCIAL!V27 IRR(C27:G27,G27)", inputs: [-0.1, 2, 0, 4, 5], guess: 5, bits: "40331ae876c68b23" },
  { at: "formulas FINANCIAL!W27 IRR(C27:H27)", inputs: [-0.1, 2, 0, 4, 5], guess: 0.1, bits: "40331ae876c653c6" },
  { at: "phpspreadsheet Sheet1!A158 IRR(C3:E3)", inputs: [1, -1, -2], guess: 0.1, bits: "3feffffffffffe28" },
];

/** RATE(nper, -388, 22000) of formulas FINANCIAL!S45, U45, V45 and Y45 (nper TRUE there, counted as 1). */
export const PUBLIC_RATE: readonly PublicSample[] = [
  { at: "formulas FINANCIAL!S45", inputs: [2, -388, 22000, 0, 0, 0.1], guess: 0.1, bits: "bfeb7573b5629f92" },
  { at: "formulas FINANCIAL!U45", inputs: [4, -388, 22000, 0, 0, 0.1], guess: 0.1, bits: "bfe2c615bb8c12e6" },
  { at: "formulas FINANCIAL!V45", inputs: [5, -388, 22000, 0, 0, 0.1], guess: 0.1, bits: "bfdf4dab06fc84c2" },
  { at: "formulas FINANCIAL!Y45", inputs: [1, -388, 22000, 0, 0, 0.1], guess: 0.1, bits: "bfef6f85dd5ec43c" },
  { at: "phpspreadsheet Sheet1!A157 RATE(360,100,-1000,0)", inputs: [360, 100, -1000, 0, 0, 0.1], guess: 0.1, bits: "3fb9999999999991" },
];

/** MIRR's: the flows, then the finance and the reinvestment rate (`inputs`); `guess` unused. */
export const PUBLIC_MIRR: readonly PublicSample[] = [
  { at: "poi Mirr!A10", inputs: [-120000, 39000, 30000, 21000, 37000, 46000, 0.1, 0.12], guess: 0, bits: "3fc023da3b11cec8" },
  { at: "poi Mirr!A20", inputs: [-7500, 3000, 5000, 1200, 4000, 0.05, 0.08], guess: 0, bits: "3fc7fb7c7a217840" },
  { at: "poi Mirr!A30", inputs: [-10000, 3400, 6500, 1000, 0.065, 0.1], guess: 0, bits: "3fb205671ba51070" },
  { at: "poi Mirr!A46", inputs: [-10000, -3400, -6500, -1000, 0.07, 0.01], guess: 0, bits: "bff0000000000000" },
  { at: "phpspreadsheet Sheet1!A159 MIRR(C3:E3,0.1,0.2)", inputs: [1, -1, -2, 0.1, 0.2], guess: 0, bits: "bfd004c1efdb14c4" },
];
