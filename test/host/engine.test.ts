import { BookError, readBook } from "../../src/host/book";
import { fixtureHost } from "./harness";

describe("WorkbookEngine with the fixture bundle", () => {
  it("evaluates literals and a scalar call", async () => {
    const host = fixtureHost();
    expect(await host.evaluate({ A1: 2, B1: "=PRICES.ADD(A1, 3)", C1: "text" })).toEqual({ A1: 2, B1: 5, C1: "text" });
  });

  it("matches function names without regard to case, answers #NAME? for unknown PRICES ones and names Excel lacks, leaves Excel's own for Excel", async () => {
    const host = fixtureHost();
    expect(await host.evaluate({ A1: "=prices.add(1,2)", A2: "=PRICES.NOPE(1)", A3: "=NOSUCH(1)", A4: "=PRICES.UNASSOCIATED()", A5: "=BESSELJ(1,1)" })).toEqual({
      A1: 3,
      A2: "#NAME?: unknown function PRICES.NOPE",
      A3: "#NAME?: NOSUCH is not an Excel function",
      A4: "#NAME?: PRICES.UNASSOCIATED is in functions.json but functions.js did not associate UNASSOCIATED",
      A5: "#N/A: left for Excel: function not supported: BESSELJ",
    });
  });

  it("spills a matrix right and down and answers #SPILL! on collision", async () => {
    const host = fixtureHost();
    expect(await host.evaluate({ A1: "=PRICES.GRID(2,3)", A4: "=PRICES.GRID(2,2)", B5: "x" })).toEqual({
      A1: 0,
      B1: 1,
      C1: 2,
      A2: 10,
      B2: 11,
      C2: 12,
      A4: "#SPILL!: spill range A4:B5 isn't blank (B5)",
      B5: "x",
    });
  });

  it("keeps errors inside a grid to their own cells", async () => {
    const host = fixtureHost();
    expect(await host.evaluate({ A1: "=PRICES.MIXED()" })).toEqual({ A1: 1, B1: "#N/A: no data", A2: "a", B2: true });
  });

  it("evaluates a formula that reads a spill after the formula that fills it", async () => {
    const host = fixtureHost();
    // D1 reads B2, which only A1's spill fills; D1 must wait although it sits after A1 only by column.
    const cells = await host.evaluate({ D1: "=PRICES.ADD(B2, 100)", A1: "=PRICES.GRID(3,3)", E5: "=PRICES.TOTAL(A1:C3)" });
    expect(cells.D1).toBe(111);
    expect(cells.E5).toBe(0 + 1 + 2 + 10 + 11 + 12 + 20 + 21 + 22);
  });

  it("orders chains of formulas that read each other's cells", async () => {
    const host = fixtureHost();
    expect(await host.evaluate({ A1: "=PRICES.ADD(A2, 1)", A2: "=PRICES.ADD(A3, 1)", A3: "=PRICES.ADD(1, 1)" })).toEqual({ A1: 4, A2: 3, A3: 2 });
  });

  it("answers an error for a cycle and leaves it, and formulas that read it, for Excel", async () => {
    const host = fixtureHost();
    expect(await host.evaluate({ A1: "=PRICES.ADD(B1, 1)", B1: "=PRICES.ADD(A1, 1)", C1: "=PRICES.ADD(C1, 1)", D1: "=PRICES.ADD(A1, 1)" })).toEqual({
      A1: "#REF!: circular reference (B1, A1)",
      B1: "#REF!: circular reference (B1, A1)",
      C1: "#REF!: circular reference (C1)",
      D1: "#N/A: left for Excel: depends on A1 (left for Excel)",
    });
    expect(host.engine.leftForExcel().map((entry) => `${entry.cell}: ${entry.why}`)).toEqual([
      "A1: circular reference (B1, A1)",
      "B1: circular reference (B1, A1)",
      "C1: circular reference (C1)",
      "D1: depends on A1 (left for Excel)",
    ]);
  });

  it("lifts a range given to a scalar parameter and spills one result per cell", async () => {
    const host = fixtureHost();
    expect(await host.evaluate({ A1: 1, A2: 2, A3: "x", B1: "=PRICES.ADD(A1:A3, 10)" })).toEqual({
      A1: 1,
      A2: 2,
      A3: "x",
      B1: 11,
      B2: 12,
      B3: '#VALUE!: first must be a number, got "x"',
    });
  });

  it("passes empty cells as 0 / '' / FALSE by type and omitted arguments as null", async () => {
    const host = fixtureHost();
    const cells = await host.evaluate({ A1: "=PRICES.OPTIONS(Z1, Z2, Z3)", A2: "=PRICES.OPTIONS(\"t\",,)", A3: "=PRICES.TYPEOF(Z9)", A4: "=PRICES.TYPEOF()" });
    expect(cells).toEqual({ A1: '["",0,false]', A2: '["t",null,null]', A3: 'string:""', A4: "null:null" });
  });

  it("coerces booleans and text for boolean parameters and rejects others with #VALUE!", async () => {
    const host = fixtureHost();
    expect(await host.evaluate({ A1: '=PRICES.FLAG("true")', A2: "=PRICES.FLAG(0)", A3: '=PRICES.FLAG("perhaps")' })).toEqual({
      A1: "yes",
      A2: "no",
      A3: '#VALUE!: flag must be TRUE or FALSE, got "perhaps"',
    });
  });

  it("gives the invocation the caller's address and the parameters' addresses", async () => {
    const host = fixtureHost();
    expect(await host.evaluate({ C7: "=PRICES.ADDRESS()", A1: "=PRICES.PARAMETERADDRESSES(B1, B2:C3)", A2: '=PRICES.PARAMETERADDRESSES("x", 1)' })).toEqual({
      A1: "Sheet1!B1|Sheet1!B2:C3",
      A2: "|",
      C7: "Sheet1!C7",
    });
  });

  it("shows the error a function throws, rejects with or returns, with its message", async () => {
    const host = fixtureHost();
    expect(await host.evaluate({ A1: '=PRICES.FAIL("unknown symbol XX")', A2: '=PRICES.RETURNERROR("bad date")', A3: "=PRICES.THROW()" })).toEqual({
      A1: "#N/A: unknown symbol XX",
      A2: "#VALUE!: bad date",
      A3: "#VALUE!",
    });
    expect(host.logged.join("\n")).toContain("plain failure");
  });

  it("logs an object a function throws as its JSON, not as [object Object]", async () => {
    const host = fixtureHost();
    expect(await host.evaluate({ A1: "=PRICES.THROWOBJECT()" })).toEqual({ A1: "#VALUE!" });
    expect(host.logged.join("\n")).toContain('THROWOBJECT threw {"reason":"no Error at all"}');
  });

  it("answers #VALUE! when a matrix result has rows of different lengths", async () => {
    const host = fixtureHost();
    expect(await host.evaluate({ A1: "=PRICES.BADSHAPE()" })).toEqual({ A1: "#VALUE!: BADSHAPE returned rows of different lengths" });
  });

  it("hands an error input to a function that accepts errors for any parameters", async () => {
    const host = fixtureHost();
    expect(await host.evaluate({ A1: '=PRICES.FAIL("gone")', B1: "=PRICES.ERRORIN(A1)", C1: "=PRICES.ECHO(A1)" })).toEqual({
      A1: "#N/A: gone",
      B1: "error #N/A gone",
      C1: "#N/A: gone",
    });
  });

  it("takes a streaming function's first result and cancels it on the next recalculation", async () => {
    const host = fixtureHost();
    expect(await host.evaluate({ A1: "=PRICES.STREAM(5)" })).toEqual({ A1: 5 });
    await host.engine.evaluate();
    expect(host.cancelled).toContain("STREAM");
  });

  it("calls onCanceled of a cancelable function when the book is replaced", async () => {
    const host = fixtureHost({ timeoutMs: 50 });
    const before = host.cancelled.filter((name) => name === "SLOW").length;
    expect(await host.evaluate({ A1: "=PRICES.SLOW(10000)" })).toEqual({ A1: "#BUSY!: no result after 50 ms" });
    host.engine.load(readBook({ cells: {} }));
    expect(host.cancelled.filter((name) => name === "SLOW").length).toBe(before + 1);
  });

  it("shows #BUSY! for a call that never settles instead of waiting forever", async () => {
    const host = fixtureHost({ timeoutMs: 30 });
    expect(await host.evaluate({ A1: "=PRICES.NEVER()", A2: 1 })).toEqual({ A1: "#BUSY!: no result after 30 ms", A2: 1 });
  });

  it("recalculates volatile functions on every evaluation", async () => {
    const host = fixtureHost();
    const first = (await host.evaluate({ A1: "=PRICES.COUNTER()" })).A1;
    await host.engine.evaluate();
    expect(host.engine.cells().A1).toBe(Number(first) + 1);
  });

  it("starts independent formulas together so a client can batch them", async () => {
    const host = fixtureHost();
    const cells: Record<string, unknown> = {};
    for (let row = 1; row <= 50; row += 1) cells[`A${row}`] = "=PRICES.SLOW(20)";
    const result = await host.evaluate(cells);
    expect(Object.values(result).every((value) => value === "done after 20")).toBe(true);
    expect(host.state.maxInFlight).toBe(50);
  });
});

describe("readBook", () => {
  it("lists every problem of a bad book", () => {
    expect(() => readBook({ cells: { A0: 1, B1: "=F(", C1: [1] } })).toThrow(BookError);
    try {
      readBook({ cells: { A0: 1, B1: "=F(", C1: [1] } });
    } catch (error) {
      expect((error as BookError).problems).toHaveLength(3);
    }
  });

  it("reads a leading apostrophe as literal text and skips empty cells", () => {
    expect(readBook({ cells: { A1: "'=not a formula", A2: null, A3: "" } }).literals).toEqual([{ row: 0, col: 0, value: "=not a formula" }]);
  });

  it("rejects a book without cells", () => {
    expect(() => readBook([])).toThrow("a book is a JSON object with a cells object");
    expect(() => readBook({ cell: {} })).toThrow('"cells" must be an object');
  });
});

describe("WorkbookEngine.update (an edit re-runs only what it touches)", () => {
  const book = { A1: 2, B1: "=PRICES.ADD(A1, 3)", C1: "=PRICES.ADD(B1, 10)", D1: "=PRICES.ADD(7, 7)", A3: "=PRICES.GRID(2,2)", D3: "=PRICES.TOTAL(A3:B4)" };

  it("runs every formula of the first book", async () => {
    const host = fixtureHost();
    expect(await host.update(book)).toEqual({ A1: 2, B1: 5, C1: 15, D1: 14, A3: 0, B3: 1, A4: 10, B4: 11, D3: 22 });
    expect(host.calls.length).toBe(5);
  });

  it("evaluates only an added formula that nothing reads", async () => {
    const host = fixtureHost();
    await host.update(book);
    host.calls.length = 0;
    const cells = await host.update({ ...book, F1: "=PRICES.ADD(100, 1)" });
    expect(host.calls).toEqual(["ADD(100, 1)"]);
    expect(cells.F1).toBe(101);
    expect(cells.C1).toBe(15);
  });

  it("re-runs the formulas that read a changed literal, and the formulas that read those, nothing else", async () => {
    const host = fixtureHost();
    await host.update(book);
    host.calls.length = 0;
    const cells = await host.update({ ...book, A1: 5 });
    expect([...host.calls].sort()).toEqual(["ADD(5, 3)", "ADD(8, 10)"]);
    expect([cells.B1, cells.C1, cells.D1, cells.D3]).toEqual([8, 18, 14, 22]);
  });

  it("re-runs the readers of a spill when its formula changes shape, and clears what it no longer covers", async () => {
    const host = fixtureHost();
    await host.update(book);
    host.calls.length = 0;
    const cells = await host.update({ ...book, A3: "=PRICES.GRID(1,1)" });
    expect([...host.calls].sort()).toEqual(["GRID(1, 1)", "TOTAL([[0,0],[0,0]])"]);
    expect(cells).toEqual({ A1: 2, B1: 5, C1: 15, D1: 14, A3: 0, D3: 0 });
  });

  it("turns a spill into #SPILL! when an entry lands in it, and spills again when the entry goes", async () => {
    const host = fixtureHost();
    await host.update(book);
    host.calls.length = 0;
    expect((await host.update({ ...book, B4: "x" })).A3).toBe("#SPILL!: spill range A3:B4 isn't blank (B4)");
    expect(host.engine.spillArea(2, 0)).toEqual({ top: 2, left: 0, bottom: 2, right: 0 });
    expect(host.engine.spills().find((s) => s.anchor.row === 2)?.blocked).toEqual({ top: 2, left: 0, bottom: 3, right: 1 });
    expect((await host.update(book)).B4).toBe(11);
    expect(host.engine.spillArea(2, 0)).toEqual({ top: 2, left: 0, bottom: 3, right: 1 });
  });

  it("refills a legacy array formula re-entered over another area with the same text", async () => {
    const host = fixtureHost();
    const cells = { A1: 2, C1: "=A1*10" };
    await host.engine.update(readBook({ cells, arrays: { C1: "C1:C2" } }));
    expect(host.engine.cells()).toEqual({ A1: 2, C1: 20, C2: 20 });
    await host.engine.update(readBook({ cells, arrays: { C1: "C1:C3" } }));
    expect(host.engine.cells()).toEqual({ A1: 2, C1: 20, C2: 20, C3: 20 });
    await host.engine.update(readBook({ cells, arrays: { C1: "C1:C1" } }));
    expect(host.engine.cells()).toEqual({ A1: 2, C1: 20 });
  });

  it("frees the cells of a deleted formula and re-runs its readers", async () => {
    const host = fixtureHost();
    await host.update(book);
    host.calls.length = 0;
    const rest: Record<string, unknown> = { ...book };
    delete rest.B1;
    const cells = await host.update(rest);
    expect(host.calls).toEqual(["ADD(0, 10)"]);
    expect(cells.C1).toBe(10);
    expect(cells.B1).toBeUndefined();
    expect(host.engine.spillArea(0, 1)).toBeUndefined();
  });

  it("re-runs volatile functions on every edit", async () => {
    const host = fixtureHost();
    const first = (await host.update({ A1: "=PRICES.COUNTER()" })).A1;
    expect((await host.update({ A1: "=PRICES.COUNTER()", B1: 1 })).A1).toBe(Number(first) + 1);
  });

  it("takes an edit made while an earlier one still runs, and keeps the later text's result", async () => {
    const host = fixtureHost();
    const slow = host.engine.update(readBook({ cells: { A1: "=PRICES.SLOW(200)" } }));
    const quick = host.engine.update(readBook({ cells: { A1: "=PRICES.SLOW(5)", B1: "=PRICES.ADD(1, 1)" } }));
    await Promise.all([slow, quick]);
    expect(host.engine.cells()).toEqual({ A1: "done after 5", B1: 2 });
    // The first text was replaced before its arguments were ready: it never called the function.
    expect(host.calls.filter((call) => call.startsWith("SLOW"))).toEqual(["SLOW(5)"]);
  });
});

describe("WorkbookEngine.spillArea", () => {
  it("gives the area each formula's result covers, and nothing for other cells", async () => {
    const host = fixtureHost();
    await host.evaluate({ A1: "=PRICES.GRID(3,2)", D1: "=PRICES.ADD(1,1)", F1: "x" });
    expect(host.engine.spillArea(0, 0)).toEqual({ top: 0, left: 0, bottom: 2, right: 1 });
    expect(host.engine.spillArea(0, 3)).toEqual({ top: 0, left: 3, bottom: 0, right: 3 });
    expect(host.engine.spillArea(1, 1)).toBeUndefined();
    expect(host.engine.spillArea(0, 5)).toBeUndefined();
  });
});
