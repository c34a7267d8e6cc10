/**
 * Cases where the engine disagreed with the values Excel saved in the public corpus (test/host/excel-corpus), one rule
 * each: the expected values are Excel's, read from those files.
 */
import { join } from "node:path";
import { readBook } from "../../src/host/book";
import { readWorkbookFile } from "../../src/xlsx/workbook-file";
import { CORPUS } from "./excel-corpus";
import { fixtureHost } from "./harness";

async function evaluate(cells: Record<string, unknown>, legacy: readonly string[] = []) {
  const host = fixtureHost();
  host.engine.load(readBook({ cells, legacy }));
  await host.engine.evaluate();
  return { cells: host.engine.cells(), left: host.engine.leftForExcel().map((entry) => [entry.cell, entry.why]) };
}

/** The error code of a printed error. */
const TRUE_CELL = "=TRUE()";
const code = (value: unknown): string => String(value).split(":")[0] ?? "";

describe("SIN, COS and TAN near a multiple of pi/2", () => {
  it("reduce by pi rounded to 64 bits, as Excel's saved values show", async () => {
    const { cells } = await evaluate({ A1: "=SIN(PI())", A2: "=COS(PI()/2)", A3: "=TAN(-PI())", A4: "=TAN(PI()/2)", A5: "=TAN(-3*PI()/2)", A6: "=COS(-PI()/2)" });
    // the values docs__SIN/COS/TAN.xlsx and trigonometric_functions.xlsx saved
    const excel = { A1: 1.22514845490862e-16, A2: 6.1257422745431e-17, A3: 1.22514845490862e-16, A4: 16324552277619072, A5: -5441517425873024, A6: 6.1257422745431e-17 };
    for (const [address, value] of Object.entries(excel)) expect([address, Number((cells[address] as number).toPrecision(15))]).toEqual([address, Number(value.toPrecision(15))]);
  });

  it("agree with the plain functions to 15 digits away from those multiples", async () => {
    const { cells } = await evaluate({ A1: "=SIN(0.5)", A2: "=COS(2)", A3: "=TAN(-7.25)", A4: "=SIN(1000)" });
    expect([cells.A1, cells.A2, cells.A3, cells.A4].map((value) => Number((value as number).toPrecision(15)))).toEqual([Math.sin(0.5), Math.cos(2), Math.tan(-7.25), Math.sin(1000)].map((value) => Number(value.toPrecision(15))));
  });
});

describe("finance error cases", () => {
  it("XNPV answers #NUM! for text among its values, where XIRR answers #VALUE!", async () => {
    const flows = { A1: -70, B1: 12, C1: 15, D1: "hello", E1: 5, A2: 44958, B2: 44986, C2: 45017, D2: 45078, E2: 45108 };
    const { cells } = await evaluate({ ...flows, F1: "=XNPV(0.1,A1:E1,A2:E2)", F2: "=XIRR(A1:E1,A2:E2)" });
    expect([code(cells.F1), code(cells.F2)]).toEqual(["#NUM!", "#VALUE!"]);
  });

  it("PV takes a rate below -100% over whole periods, #NUM! over part of one", async () => {
    const { cells } = await evaluate({ A1: "=PV(-3,5,100,12,1)", A2: "=PV(-3,5,100)", A3: "=PV(-3,2.5,100)" });
    expect([cells.A1, cells.A2, code(cells.A3)]).toEqual([-68.375, 34.375, "#NUM!"]);
  });
});

describe("lookups", () => {
  it("VLOOKUP and HLOOKUP answer #VALUE! for typed text as the table, #N/A for a typed number", async () => {
    const { cells } = await evaluate({ A1: "Aranda", B1: '=VLOOKUP(A1,"Nothing",1)', B2: '=HLOOKUP(A1,"Nothing",1)', B3: "=VLOOKUP(A1,3,1)", B4: "=VLOOKUP(A1,A1,1,FALSE)" });
    expect([code(cells.B1), code(cells.B2), code(cells.B3), cells.B4]).toEqual(["#VALUE!", "#VALUE!", "#N/A", "Aranda"]);
  });

  it("INDEX takes area 1 of its reference, #REF! for another", async () => {
    const { cells } = await evaluate({ A1: "=INDEX({1,2,3},1,2,1)", A2: "=INDEX({1,2,3},1,2,2)", A3: "=INDEX({1,2,3},1,2,0)" });
    expect([cells.A1, code(cells.A2), code(cells.A3)]).toEqual([2, "#REF!", "#VALUE!"]);
  });

  it("a whole column of INDEX in a plain formula meets the formula's row, #VALUE! outside it", async () => {
    const { cells } = await evaluate({ A1: "A", A2: 11, A3: "x", C2: "=INDEX(A1:A3,0.4)", H6: "=INDEX(A1:A3,0.4)" }, ["C2", "H6"]);
    expect([cells.C2, code(cells.H6)]).toEqual([11, "#VALUE!"]);
  });
});

describe("dates and text that depend on the reader", () => {
  it("reads an error Excel saves as #VALUE! with rich-value metadata as the error it names", async () => {
    const loaded = readWorkbookFile(join(CORPUS, "INFORMATION__ERROR.TYPE.xlsx"), () => undefined, undefined, { formulas: "every formula" });
    const book = loaded.sheets[0]?.book as { cells: Record<string, unknown> };
    expect([book.cells.A8, book.cells.A14]).toEqual([{ error: "#CALC!" }, { error: "#SPILL!" }]);
    const { cells } = await evaluate({ A1: book.cells.A8, A2: book.cells.A14, B1: "=ERROR.TYPE(A1)", B2: "=ERROR.TYPE(A2)" });
    expect([cells.B1, cells.B2]).toEqual([14, 9]);
  });

  it("reads a saved empty text as text, not a blank: MATCH finds it", async () => {
    const path = join(CORPUS, "LOOKUP_AND_REFERENCE__MATCH.xlsx");
    const loaded = readWorkbookFile(path, () => undefined, undefined, { formulas: "every formula" });
    const book = loaded.sheets[0]?.book as { cells: Record<string, unknown> };
    expect(book.cells.A16).toBe("'");
    const { cells } = await evaluate({ A1: "a", A2: book.cells.A16, A3: "x", B1: '=MATCH("",A1:A3,0)', B2: "=ISBLANK(A2)" });
    expect([cells.B1, cells.B2]).toEqual([2, false]);
  });

  it("DAYS360 reads a date at its nearest second", async () => {
    const { cells } = await evaluate({ A1: "=DAYS360(45992.000001,46000.999999)", A2: "=DAYS360(45992,46000.99)" });
    expect([cells.A1, cells.A2]).toEqual([9, 8]);
  });

  it("leaves for Excel a slashed date whose day and month a day-first locale reads the other way", async () => {
    const { cells, left } = await evaluate({ A1: '=VALUE("2/3/2023")', A2: '=VALUE("3/3/2023")', A3: '=DATEVALUE("13/2/2023")' });
    expect(cells.A2).toBe(44988);
    expect(left).toEqual([
      ["A1", '"2/3/2023" is a different date (or none) in a day-first locale, which the engine cannot see'],
      ["A3", '"13/2/2023" is a different date (or none) in a day-first locale, which the engine cannot see'],
    ]);
  });

  it("leaves for Excel TEXT of 21 digits or more, which Excel writes in full", async () => {
    const { cells, left } = await evaluate({ A1: '=TEXT(1.23456E+19,"0.00%")', A2: '=TEXT(1.23456E+17,"0.00%")', A3: '=TEXT(1.5E+21,"0.0E+00")' });
    expect([cells.A2, cells.A3]).toEqual(["12345600000000000000.00%", "1.5E+21"]);
    expect(left.map(([cell]) => cell)).toEqual(["A1"]);
  });
});

describe("SORT over errors", () => {
  it("puts errors after TRUE/FALSE in ERROR.TYPE's order, first when descending; blanks last either way", async () => {
    const { cells } = await evaluate({ A1: 2, A2: "=NA()", A3: "=1/0", A4: "b", A5: TRUE_CELL, C1: "=SORT(A1:A6)", D1: "=SORT(A1:A6,1,-1)" });
    expect([cells.C1, cells.C2, cells.C3, code(cells.C4), code(cells.C5), cells.C6]).toEqual([2, "b", true, "#DIV/0!", "#N/A", 0]);
    expect([code(cells.D1), code(cells.D2), cells.D3, cells.D4, cells.D5, cells.D6]).toEqual(["#N/A", "#DIV/0!", true, "b", 2, 0]);
  });
});

describe("the annuity functions' digits", () => {
  it("compound a whole number of periods by squaring and multiplying, as Excel's saved values show", async () => {
    // docs__FV.xlsx and docs__PV.xlsx: Excel's values, where the correctly rounded power differs from the 14th digit
    const { cells } = await evaluate({ A1: "=FV(0.1/12,36,-10)", A2: "=FV(0.1/12,36,-10,,1)", A3: "=PV(0.0042,12,-1000,20000,FALSE)", A4: "=PV(0.1,36,-10)" });
    expect([cells.A1, cells.A2, cells.A3, cells.A4].map((value) => Number((value as number).toPrecision(15)))).toEqual([417.818210902592, 421.30002932678, -7340.26624839494, 96.7650815692393]);
  });
});

describe("empty arrays", () => {
  it("SEQUENCE, TAKE and DROP of no cells are #CALC!, a negative count #VALUE!", async () => {
    const { cells } = await evaluate({ A1: 1, A2: 2, B1: "=SEQUENCE(0,0)", B2: "=SEQUENCE(0.3)", B3: "=SEQUENCE(-1)", B4: "=TAKE(A1:A2,0)", B5: "=DROP(A1:A2,1,1)" });
    expect([cells.B1, cells.B2, cells.B3, cells.B4, cells.B5].map(code)).toEqual(["#CALC!", "#CALC!", "#VALUE!", "#CALC!", "#CALC!"]);
  });
});

describe("IFERROR over arrays", () => {
  it("reads a shorter fallback only where the value is an error", async () => {
    const { cells } = await evaluate({ G4: 100, G5: 250, G6: 80, G7: 60, H4: 5, H5: 0, H6: 8, H7: 0, G12: 10, G13: 20, C49: "=IFERROR(G4:G7/H4:H7,G12:G13)" });
    // LOGICAL__IFERROR.xlsx: Excel's 20, 20, 10, #N/A
    expect([cells.C49, cells.C50, cells.C51, code(cells.C52)]).toEqual([20, 20, 10, "#N/A"]);
  });
});

describe("a negative power", () => {
  it("is the reciprocal of the positive power, as Excel's digits show", async () => {
    // FINANCIAL__RRI.xlsx: Excel saved -3.9168134712272207E-2 where 4/3 ** (1/-7.2) - 1 gives ...2096
    const { cells } = await evaluate({ A1: "=POWER(4/3,1/-7.2)-1", A2: "=(4/3)^(1/-7.2)-1", A3: "=2^-3", A4: "=(-2)^-3" });
    expect([cells.A1, cells.A2, cells.A3, cells.A4]).toEqual([-3.9168134712272207e-2, -3.9168134712272207e-2, 0.125, -0.125]);
  });
});
