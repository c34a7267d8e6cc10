/** Excel's semantics the engine must keep, one rule at a time, and what it leaves for Excel instead of guessing. */
import { isoDateToSerial } from "../../src/formula/excel-dates";
import { BookError, readBook } from "../../src/host/book";
import { BookScope } from "../../src/host/book-scope";
import { fixtureHost } from "./harness";

const MARCH_1_2024 = 45352;

describe("ranges and typed arguments", () => {
  it("SUM skips numeric text, TRUE and blanks in a range but counts them typed as arguments", async () => {
    const cells = await fixtureHost().evaluate({ A1: 1, A2: "'5", A3: true, B1: "=SUM(A1:A4)", B2: '=SUM(A1,"5",TRUE)', B3: "=SUM(A2)", B4: "=COUNT(A1:A4)", B5: "=AVERAGE(A1:A4)" });
    expect([cells.B1, cells.B2, cells.B3, cells.B4, cells.B5]).toEqual([1, 7, 0, 1, 1]);
  });

  it("MEDIAN, SMALL, CORREL, SLOPE and FORECAST skip blanks rather than count them as 0", async () => {
    const cells = await fixtureHost().evaluate({
      A1: 1, A2: 2, A4: 4, A5: 100, B1: 2, B2: 4, B3: 5, B4: 8, B5: 200,
      C1: "=MEDIAN(A1:A5)", C2: "=SMALL(A1:A5,1)", C3: "=CORREL(A1:A5,B1:B5)", C4: "=SLOPE(B1:B5,A1:A5)", C5: "=FORECAST(3,B1:B5,A1:A5)",
    });
    expect([cells.C1, cells.C2, cells.C3, cells.C4]).toEqual([3, 1, 1, 2]);
    expect(cells.C5).toBeCloseTo(6, 10);
  });

  it("a single-cell reference is its value in LEN, ISTEXT, ISBLANK, IFS and SWITCH", async () => {
    const cells = await fixtureHost().evaluate({
      A1: "apple", A2: 7, B1: "=LEN(A1)", B2: "=ISTEXT(A1)", B3: "=ISBLANK(A3)", B4: '=IFS(A2>5,"big",TRUE,"small")', B5: '=SWITCH(A2,7,"seven","other")', B6: "=ISBLANK(A1)",
    });
    expect([cells.B1, cells.B2, cells.B3, cells.B4, cells.B5, cells.B6]).toEqual([5, true, true, "big", "seven", false]);
  });
});

describe("empty arguments", () => {
  it("VLOOKUP's empty range_lookup is FALSE, XLOOKUP's empty arguments are their defaults, others are left for Excel", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({
      A1: 1, A2: 3, A3: 5, B1: "one", B2: "three", B3: "five", C1: "=VLOOKUP(4,A1:B3,2,)", C2: "=VLOOKUP(4,A1:B3,2)", C3: "=XLOOKUP(4,A1:A3,B1:B3,,-1)", C4: '=LEFT("abc",)', C5: "=ROUND(2.5,)",
    });
    expect([cells.C1, cells.C2, cells.C3, cells.C5]).toEqual(["#N/A: no match", "three", "three", 3]);
    expect(host.engine.leftForExcel()).toEqual([{ cell: "C4", formula: 'LEFT("abc",)', why: "an empty argument of LEFT is not supported" }]);
  });
});

describe("operators", () => {
  it("compares at 15 significant digits, takes MOD's sign from the divisor, refuses 0x10 as a number, and 0^-1 is #DIV/0!", async () => {
    const cells = await fixtureHost().evaluate({ A1: "=0.1+0.2=0.3", A2: "=MOD(7,-3)", A3: '="0x10"+1', A4: "=0^-1", A5: "=MOD(-7,3)", A6: '="1,000"+"50%"' });
    expect([cells.A1, cells.A2, String(cells.A3), cells.A4, cells.A5, cells.A6]).toEqual([true, -2, expect.stringMatching(/^#VALUE!/) as unknown, "#DIV/0!", 2, 1000.5]);
  });

  it("propagates the first error of an expression and of a range", async () => {
    const cells = await fixtureHost().evaluate({ A1: "=1/0", A2: "=NA()", B1: "=A1+A2", B2: "=A2+A1", B3: "=SUM(A1:A2)", B4: "=COUNT(A1:A2)", B5: "=IFERROR(A1,0)" });
    expect([cells.B1, cells.B2, cells.B3, cells.B4, cells.B5]).toEqual(["#DIV/0!", "#N/A", "#DIV/0!", 0, 0]);
  });

  it("reads @ and _xlfn.SINGLE as implicit intersection with the formula's row or column", async () => {
    const cells = await fixtureHost().evaluate({ A1: 10, A2: 20, A3: 30, B2: "=@A1:A3", C2: "=_xlfn.SINGLE(A1:A3)*2", B5: "=@A1:A3", D1: "=@{5,6}" });
    expect([cells.B2, cells.C2, String(cells.B5), cells.D1]).toEqual([20, 40, expect.stringMatching(/^#VALUE!/) as unknown, 5]);
  });
});

describe("names, LET, spills and references built as the formula runs", () => {
  it("binds LET names (as typed and as files store them) and spills SEQUENCE, read back with ANCHORARRAY", async () => {
    const cells = await fixtureHost().evaluate({ A1: "=LET(x,2,x*3)", A2: "=_xlfn.LET(_xlpm.rate,0.5,_xlpm.rate*A1)", B1: "=_xlfn.SEQUENCE(3,1,10,5)", C1: "=SUM(_xlfn.ANCHORARRAY(B1))", C2: "=SUM(B1#)" });
    expect([cells.A1, cells.A2, cells.B1, cells.B2, cells.B3, cells.C1, cells.C2]).toEqual([6, 3, 10, 15, 20, 45, 45]);
  });

  it("reads the book's names: constants, ranges and a sheet's own name before the workbook's", async () => {
    const scope = new BookScope([
      { name: "TaxRate", refersTo: "0.2" },
      { name: "Prices", refersTo: "Sheet1!$A$1:$A$3" },
      { name: "Owner", sheet: "Sheet1", refersTo: '"sheet"' },
      { name: "Owner", refersTo: '"book"' },
    ]);
    const cells = await fixtureHost({ scope }).evaluate({ A1: 10, A2: 20, A3: 30, B1: "=SUM(Prices)*TaxRate", B2: "=Owner", B3: "=INDEX(Prices,2)", B4: "=Nowhere" });
    expect([cells.B1, cells.B2, cells.B3, cells.B4]).toEqual([12, "sheet", 20, "#NAME?: the book defines no name Nowhere"]);
  });

  it("a JSON book may define names", async () => {
    const book = readBook({ cells: { A1: 5, B1: "=A1*TaxRate", B2: "=SUM(Inputs)" }, names: { TaxRate: "0.2", Inputs: "=$A$1:$A$2" } });
    expect(book.names).toEqual([{ name: "TaxRate", refersTo: "0.2" }, { name: "Inputs", refersTo: "$A$1:$A$2" }]);
    expect(() => readBook({ cells: {}, names: { B2: "1" } })).toThrow(BookError);
    const host = fixtureHost();
    host.engine.load(book);
    await host.engine.evaluate();
    expect([host.engine.value(0, 1), host.engine.value(1, 1)]).toEqual([1, 5]);
  });

  it("formulas built on INDIRECT run together, so their PRICES calls batch, and one that reads another waits for it", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({
      A1: 1, A2: 2, A3: 3, B1: '=PRICES.SLOW(INDIRECT("A"&ROW()))', B2: '=PRICES.SLOW(INDIRECT("A"&ROW()))', B3: '=PRICES.SLOW(INDIRECT("A"&ROW()))',
      C1: '=LEN(INDIRECT("B3"))*2', C2: "=SUM(C:C)",
    });
    expect([cells.B1, cells.B2, cells.B3, cells.C1]).toEqual(["done after 1", "done after 2", "done after 3", 24]);
    expect(host.state.maxInFlight).toBe(3);
    expect(String(cells.C2)).toMatch(/^#N\/A: left for Excel: reads its own cell C2/);
  });

  it("OFFSET and INDIRECT read formula results, even those that come later in the sheet", async () => {
    const cells = await fixtureHost().evaluate({
      A1: '=INDIRECT("C"&B1)', B1: 3, A2: "=SUM(OFFSET(C1,0,0,3,1))", A3: "=A1*2", C1: 1, C2: "=C1+1", C3: "=PRICES.ADD(C2,1)", A4: '=INDIRECT("nowhere")',
    });
    expect([cells.A1, cells.A2, cells.A3, String(cells.A4)]).toEqual([3, 6, 6, expect.stringMatching(/^#REF!/) as unknown]);
  });
});

describe("whole rows and columns", () => {
  it("read the sheet's used area, spills included, once every formula that could fill them has run", async () => {
    const cells = await fixtureHost().evaluate({
      A1: "=D1*2", B1: 1, B2: "=SEQUENCE(3)", B6: "=PRICES.ADD(10,0)", D1: "=SUM(B:B)", D3: "=COUNT(2:2)", E2: 5, D4: "=MAX(B:C)", A9: "=SEQUENCE(1,3,100,0)",
      F1: "=SUM(C:C)",
    });
    expect([cells.D1, cells.A1, cells.D3, cells.D4, cells.F1]).toEqual([117, 234, 2, 100, 100]);
  });

  it("an edit in a whole column runs its readers again", async () => {
    const host = fixtureHost();
    await host.evaluate({ A1: 1, A2: 2, C1: "=SUM(A:A)" });
    expect((await host.update({ A1: 1, A2: 2, A7: 10, C1: "=SUM(A:A)" })).C1).toBe(13);
  });

  it("a whole column that holds the formula reading it is circular: left for Excel, never read stale", async () => {
    const host = fixtureHost();
    await host.evaluate({ A1: "=SUM(B:B)", B1: "=SEQUENCE(A1)" });
    expect(host.engine.leftForExcel().map((entry) => entry.why)).toEqual(["circular reference (B1, A1)", "circular reference (B1, A1)"]);
  });
});

describe("dates", () => {
  it("every date function works in a 1904 book's serials", async () => {
    const serial = isoDateToSerial("2024-03-01", "1904");
    const cells = await fixtureHost({ dateSystem: "1904", today: () => serial }).evaluate({
      A1: "=DATE(2024,3,1)", A2: "=YEAR(TODAY())", A3: '=TEXT(A1,"yyyy-mm-dd")', A4: "=WEEKDAY(A1)", A5: "=EOMONTH(A1,0)", A6: '=DATEVALUE("2024-03-01")',
      A7: "=WORKDAY(A1,1)", A8: "=MONTH(EDATE(A1,1))", A9: "=PRICES.ECHO(DATE(2024,3,1))",
    });
    expect([cells.A1, cells.A2, cells.A3, cells.A4, cells.A5, cells.A6, cells.A7, cells.A8, cells.A9]).toEqual([
      serial, 2024, "2024-03-01", 6, isoDateToSerial("2024-03-31", "1904"), serial, isoDateToSerial("2024-03-04", "1904"), 4, serial,
    ]);
  });

  it("does not depend on the machine's time zone, and a date-time before 1970 is not a day early", async () => {
    const saved = process.env.TZ;
    const seen: unknown[] = [];
    try {
      for (const zone of ["Pacific/Kiritimati", "America/Los_Angeles", "UTC"]) {
        process.env.TZ = zone;
        const cells = await fixtureHost({ today: () => MARCH_1_2024 }).evaluate({ A1: '=TEXT(TODAY(),"yyyy-mm-dd")', A2: '=TEXT(21916.75,"yyyy-mm-dd hh:mm")', A3: "=DAY(21916.75)", A4: "=WEEKDAY(21916)" });
        seen.push([cells.A1, cells.A2, cells.A3, cells.A4]);
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
    expect(seen).toEqual(Array.from({ length: 3 }, () => ["2024-03-01", "1960-01-01 18:00", 1, 6]));
  });

  it("TEXT reads Excel's number-format codes", async () => {
    const cells = await fixtureHost().evaluate({ A1: MARCH_1_2024, B1: '=TEXT(A1,"mmm-yy")', B2: '=TEXT(42,"000000")', B3: '=TEXT(1234.5,"$#,##0.00")', B4: '=TEXT(0.256,"0.0%")', B5: '=TEXT(A1,"dddd")' });
    expect([cells.B1, cells.B2, cells.B3, cells.B4, cells.B5]).toEqual(["Mar-24", "000042", "$1,234.50", "25.6%", "Friday"]);
  });
});

describe("left for Excel", () => {
  it("an unsupported function, LAMBDA, an external link and a whole column are left with why; their dependents too; the rest is evaluated", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({
      A1: "=CUBEVALUE(\"x\")", A2: "=A1+1", A3: "=SUM(A1:A2)", A4: 5, A5: "=A4*2", A6: "=LAMBDA(x,x+1)(2)", A7: "=[1]Rates!$B$2", A8: "=SUM(C:C)",
      A9: "=IFERROR(A2,0)", A10: '=INDIRECT("A1")',
    });
    expect(cells.A1).toBe("#N/A: left for Excel: function not supported: CUBEVALUE");
    expect([cells.A5, cells.A8]).toEqual([10, 0]);
    expect(host.engine.leftForExcel()).toEqual([
      { cell: "A1", formula: 'CUBEVALUE("x")', why: "function not supported: CUBEVALUE" },
      { cell: "A2", formula: "A1+1", why: "depends on A1 (left for Excel)" },
      { cell: "A3", formula: "SUM(A1:A2)", why: "depends on A1 (left for Excel)" },
      { cell: "A6", formula: "LAMBDA(x,x+1)(2)", why: "LAMBDA is not supported" },
      { cell: "A7", formula: "[1]Rates!$B$2", why: "external link [1]" },
      { cell: "A9", formula: "IFERROR(A2,0)", why: "depends on A2 (left for Excel)" },
      { cell: "A10", formula: 'INDIRECT("A1")', why: "depends on A1 (left for Excel)" },
    ]);
  });

  it("a formula left for Excel after its PRICES calls were made has no provenance", async () => {
    const host = fixtureHost();
    await host.evaluate({ A1: "=CUBESETCOUNT(1)", B1: "=PRICES.ADD(1,2)+A1", B2: "=PRICES.ADD(1,2)" });
    expect([...host.engine.customCalls().keys()]).toEqual(["B2"]);
  });

  it("a spill that reads a left cell is left, and so is what reads the spill", async () => {
    const host = fixtureHost();
    await host.evaluate({ A1: "=CUBESETCOUNT(1)", B1: "=SEQUENCE(A1)", C1: "=SUM(B1#)", C2: "=SUM(SEQUENCE(2))" });
    expect(host.engine.leftForExcel().map((entry) => entry.cell)).toEqual(["A1", "B1", "C1"]);
    expect(host.engine.value(1, 2)).toBe(3);
  });
});
