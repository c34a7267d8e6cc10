/**
 * Excel formulas in the host: the examples Microsoft's function reference gives for each worksheet function the host
 * documents, operators and spill references, and custom functions nested inside them.
 */
import { isoDateToSerial } from "../../src/formula/excel-dates";
import { fixtureHost } from "./harness";

const serial = isoDateToSerial;

describe("worksheet functions (Excel's documented examples)", () => {
  it("AVERAGE, SUM, MIN and MAX of A2:A6 = 10, 7, 9, 27, 2", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({
      A2: 10,
      A3: 7,
      A4: 9,
      A5: 27,
      A6: 2,
      B1: "=AVERAGE(A2:A6)",
      B2: "=AVERAGE(A2:A6, 5)",
      B3: "=SUM(A2:A6)",
      B4: "=MIN(A2:A6)",
      B5: "=MAX(A2:A6, 30)",
    });
    expect([cells.B1, cells.B2, cells.B3, cells.B4, cells.B5]).toEqual([11, 10, 55, 2, 30]);
  });

  it("DATE, EDATE, EOMONTH and WORKDAY give serial dates", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({
      A1: "=DATE(2008,1,1)",
      A2: "=EDATE(DATE(2011,1,15),1)",
      A3: "=EDATE(DATE(2011,1,15),-1)",
      A4: "=EOMONTH(DATE(2011,1,1),1)",
      A5: "=EOMONTH(DATE(2011,1,1),-3)",
      A6: "=WORKDAY(DATE(2008,10,1),151)",
      A7: "=WORKDAY(DATE(2008,10,1),151,{39778,39786,39834})",
    });
    expect(cells).toEqual({
      A1: serial("2008-01-01"),
      A2: serial("2011-02-15"),
      A3: serial("2010-12-15"),
      A4: serial("2011-02-28"),
      A5: serial("2010-10-31"),
      A6: serial("2009-04-30"),
      A7: serial("2009-05-05"),
    });
  });

  it("TODAY and NOW follow the host's clock, and date arithmetic works on them", async () => {
    const host = fixtureHost({ today: () => serial("2024-03-04") });
    expect(await host.evaluate({ A1: "=TODAY()-1", A2: '=TEXT(TODAY(),"yyyy-mm-dd")' })).toEqual({ A1: serial("2024-03-03"), A2: "2024-03-04" });
  });

  it("NOW() is today plus the time of day, so NOW()-TODAY() is the fraction of the day gone", async () => {
    const host = fixtureHost({ today: () => serial("2024-03-04") });
    const cells = await host.evaluate({ A1: "=NOW()-TODAY()", A2: "=INT(NOW())" });
    expect(cells.A1).toBeGreaterThanOrEqual(0);
    expect(cells.A1).toBeLessThan(1);
    expect(cells.A1).toBeCloseTo((Date.now() % 86_400_000) / 86_400_000, 2);
    expect(cells.A2).toBe(serial("2024-03-04"));
  });

  it("in a 1904 book TODAY() and date text in arithmetic are serials of the 1904 system", async () => {
    const host = fixtureHost({ dateSystem: "1904" });
    const today = new Date().toISOString().slice(0, 10);
    const cells = await host.evaluate({ A1: "=TODAY()", A2: '="2024-03-04"-1', A3: '="2024-03-04"+0' });
    // guard against the day turning over between the evaluation and this line
    expect([isoDateToSerial(today, "1904"), isoDateToSerial(new Date().toISOString().slice(0, 10), "1904")]).toContain(cells.A1);
    expect([cells.A2, cells.A3]).toEqual([isoDateToSerial("2024-03-03", "1904"), isoDateToSerial("2024-03-04", "1904")]);
    expect(cells.A3).toBe(serial("2024-03-04") - 1462);
  });

  it("INDEX and MATCH", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({
      A1: "Apples",
      B1: "Lemons",
      A2: "Bananas",
      B2: "Pears",
      C1: "=INDEX(A1:B2,2,2)",
      C2: "=INDEX(A1:B2,2,1)",
      D1: 25,
      D2: 38,
      D3: 40,
      D4: 41,
      E1: "=MATCH(39,D1:D4,1)",
      E2: "=MATCH(41,D1:D4,0)",
    });
    expect([cells.C1, cells.C2, cells.E1, cells.E2]).toEqual(["Pears", "Bananas", 2, 4]);
  });

  it("XLOOKUP finds exact and next-smaller matches and answers if_not_found", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({
      A1: "China",
      B1: "+86",
      A2: "India",
      B2: "+91",
      A3: "Brazil",
      B3: "+55",
      C1: '=XLOOKUP("brazil",A1:A3,B1:B3)',
      C2: '=XLOOKUP("Peru",A1:A3,B1:B3,"ID not found")',
      C3: '=XLOOKUP("Peru",A1:A3,B1:B3)',
      D1: 10,
      D2: 20,
      D3: 30,
      E1: "=XLOOKUP(25,D1:D3,A1:A3,,-1)",
      E2: "=XLOOKUP(25,D1:D3,A1:A3,,1)",
    });
    expect([cells.C1, cells.C2, cells.E1, cells.E2]).toEqual(["+55", "ID not found", "India", "Brazil"]);
    expect(cells.C3).toBe("#N/A: XLOOKUP found no match");
  });

  it("FILTER, SORT and TAKE spill their arrays", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({
      A1: "East",
      B1: 3,
      A2: "West",
      B2: 1,
      A3: "East",
      B3: 2,
      D1: '=FILTER(B1:B3,A1:A3="East")',
      E1: "=SORT(B1:B3)",
      F1: "=TAKE({1,2,3;4,5,6;7,8,9},2)",
      F4: "=TAKE({1,2,3;4,5,6;7,8,9},-1)",
      J1: '=FILTER(B1:B3,A1:A3="North","none")',
    });
    expect([cells.D1, cells.D2, cells.D3]).toEqual([3, 2, undefined]);
    expect([cells.E1, cells.E2, cells.E3]).toEqual([1, 2, 3]);
    expect([cells.F1, cells.H1, cells.F2, cells.H2, cells.F3]).toEqual([1, 3, 4, 6, undefined]);
    expect([cells.F4, cells.G4, cells.H4]).toEqual([7, 8, 9]);
    expect(cells.J1).toBe("none");
  });

  it("IF, IFERROR, ROUND and TEXT", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({
      A1: 210,
      B1: 35,
      A2: 55,
      B2: 0,
      C1: '=IFERROR(A1/B1,"Error in calculation")',
      C2: '=IFERROR(A2/B2,"Error in calculation")',
      C3: '=IF(A1>89,"A",IF(A1>79,"B","C"))',
      C4: "=A2/B2",
      D1: "=ROUND(2.15, 1)",
      D2: "=ROUND(-1.475, 2)",
      D3: "=ROUND(21.5, -1)",
      E1: '=TEXT(1234.567,"$#,##0.00")',
      E2: '=TEXT(DATE(2024,3,1),"yyyy-mm-dd")',
    });
    expect([cells.C1, cells.C2, cells.C3, cells.C4]).toEqual([6, "Error in calculation", "A", "#DIV/0!"]);
    expect([cells.D1, cells.D2, cells.D3]).toEqual([2.2, -1.48, 20]);
    expect([cells.E1, cells.E2]).toEqual(["$1,234.57", "2024-03-01"]);
  });

  it("answers #NAME? for a function Excel does not know and a name the book does not define, leaves another sheet for Excel", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({ A1: "=NOSUCH(1)", A2: "=rate*2", A3: "=Other!A1+1", A4: "=Sheet1!A5+1", A5: 1 });
    expect(cells.A1).toBe("#NAME?: NOSUCH is not an Excel function");
    expect(cells.A2).toBe("#NAME?: the book defines no name rate");
    expect(String(cells.A3)).toMatch(/^#N\/A: left for Excel: Other!A1: the host evaluates each sheet on its own/);
    expect(cells.A4).toBe(2);
  });
});

describe("operators, references and spills", () => {
  it("follows Excel's precedence: unary minus before ^, % before *, & last", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({ A1: 3, B1: "=-A1^2", B2: "=2*50%", B3: '=1+2&"x"', B4: "=A1>=3", B5: '="a"="A"', B6: '="10"+1' });
    expect(cells).toMatchObject({ B1: 9, B2: 1, B3: "3x", B4: true, B5: true, B6: 11 });
  });

  it("broadcasts arithmetic over ranges and reads a whole spill with A1#", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({ A1: "={1;2;3}", B1: "=A1#*10", C1: "=SUM(A1#)", D1: "=B1/A1-1" });
    expect(cells).toEqual({ A1: 1, A2: 2, A3: 3, B1: 10, B2: 20, B3: 30, C1: 6, D1: 9 });
  });

  it("re-reads a spill reference when the spill it names changes size", async () => {
    const host = fixtureHost();
    await host.update({ A1: 2, B1: "=PRICES.GRID(A1,1)", C1: "=ROWS(B1#)" });
    expect((await host.update({ A1: 4, B1: "=PRICES.GRID(A1,1)", C1: "=ROWS(B1#)" })).C1).toBe(4);
  });
});

describe("custom functions nested in formulas", () => {
  it("passes evaluated arguments and uses the result like any value", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({ A1: 2, B1: "=PRICES.ADD(A1*3, 1)*10", B2: "=SUM(PRICES.GRID(2,2))", B3: "=INDEX(PRICES.GRID(3,3),2,3)" });
    expect(cells).toEqual({ A1: 2, B1: 70, B2: 22, B3: 12 });
  });

  it("starts every custom call of a formula together, so a client can batch them", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({ A1: "=PRICES.SLOW(30)&PRICES.SLOW(31)&PRICES.SLOW(32)" });
    expect(cells.A1).toBe("done after 30done after 31done after 32");
    expect(host.state.maxInFlight).toBe(3);
  });

  it("accepts the _xldudf_ form Excel saves a JavaScript custom function in", async () => {
    const host = fixtureHost();
    expect(await host.evaluate({ A1: "=_xldudf_PRICES_ADD(1,2)", A2: "=_xlfn.IFNA(_xldudf_PRICES_ADD(A1,1),0)" })).toEqual({ A1: 3, A2: 4 });
  });
});
