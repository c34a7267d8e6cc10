import fc from "fast-check";
import { isA1Reference } from "../../src/formula/a1";
import { argFromInput, buildFormula, FormulaError, parseCall, qualifyAddress, quoteText, type FormulaArg } from "../../src/taskpane/formula";
import { FUNCTIONS } from "../../src/taskpane/catalogue";

const text = (value: string): FormulaArg => ({ kind: "text", value });
const omitted: FormulaArg = { kind: "omitted" };

describe("formula building", () => {
  it("writes a latest mid with the symbol as a string literal", () => {
    expect(buildFormula("MID", [text("MB-AL-0004")])).toBe('=PRICES.MID("MB-AL-0004")');
  });

  it("keeps inner omitted arguments empty and drops trailing ones", () => {
    expect(buildFormula("PRICE", [text("X"), omitted, text("pricingRationale"), omitted])).toBe('=PRICES.PRICE("X",,"pricingRationale")');
  });

  it("writes numbers, booleans and references as themselves", () => {
    expect(buildFormula("HISTORY", [{ kind: "ref", address: "A2" }, text("2024-01-01"), omitted, omitted, { kind: "number", value: 1 }])).toBe(
      '=PRICES.HISTORY(A2,"2024-01-01",,,1)',
    );
    expect(buildFormula("MID", [{ kind: "ref", address: "'Price sheet'!$A$1:$A$20" }])).toBe("=PRICES.MID('Price sheet'!$A$1:$A$20)");
  });

  it("doubles quotes so a symbol with a quote stays one literal", () => {
    expect(quoteText('AB"C')).toBe('"AB""C"');
    const formula = buildFormula("MID", [text('X")+HYPERLINK("http://evil","click')]);
    expect(formula).toBe('=PRICES.MID("X"")+HYPERLINK(""http://evil"",""click")');
    const parsed = parseCall(formula);
    expect(parsed?.args).toEqual([text('X")+HYPERLINK("http://evil","click')]);
  });

  it("refuses a required argument left out, an unknown function and too many arguments", () => {
    expect(() => buildFormula("HISTORY", [text("X")])).toThrow(FormulaError);
    expect(() => buildFormula("HISTORY", [text("X"), omitted, text("2024-01-01")])).toThrow("from is required");
    expect(() => buildFormula("WEBSERVICE", [text("x")])).toThrow("unknown function");
    expect(() => buildFormula("MID", [text("a"), text("b"), text("EUR"), text("LB"), text("c")])).toThrow("at most 4");
  });

  it("refuses text Excel cannot hold and references that are not A1", () => {
    expect(() => quoteText("x".repeat(256))).toThrow("255");
    expect(quoteText("x".repeat(255))).toHaveLength(257);
    expect(() => quoteText("a\nb")).toThrow("control character");
    expect(() => buildFormula("MID", [{ kind: "ref", address: "A1)+CMD(" }])).toThrow("not a cell reference");
    expect(() => buildFormula("MID", [{ kind: "number", value: Number.NaN }])).toThrow("not finite");
  });

  it("qualifies sheet names that need quotes", () => {
    expect(qualifyAddress("Sheet1", "A1")).toBe("Sheet1!A1");
    expect(qualifyAddress("My sheet", "A1:B2")).toBe("'My sheet'!A1:B2");
    expect(qualifyAddress("O'Brien", "C3")).toBe("'O''Brien'!C3");
    expect(qualifyAddress("AB1", "C3")).toBe("'AB1'!C3");
    expect(isA1Reference("'O''Brien'!C3")).toBe(true);
  });

  it("reads what the user typed: blank omitted, references, numbers, text", () => {
    expect(argFromInput("  ")).toEqual(omitted);
    expect(argFromInput("B7")).toEqual({ kind: "ref", address: "B7" });
    expect(argFromInput("2")).toEqual({ kind: "number", value: 2 });
    expect(argFromInput("2", "text")).toEqual(text("2"));
    expect(argFromInput("MB-AL-0004")).toEqual(text("MB-AL-0004"));
  });

  it("every formula built from arbitrary text parses back to the same arguments (no injection)", () => {
    const arbitraryText = fc.string({ maxLength: 255 }).filter((s) => !/[\u0000-\u001f\u007f]/.test(s));
    fc.assert(
      fc.property(fc.constantFrom(...FUNCTIONS), fc.array(arbitraryText, { minLength: 1, maxLength: 8 }), (spec, values) => {
        const args = spec.parameters.map((_, i) => text(values[i % values.length] ?? ""));
        const formula = buildFormula(spec, args);
        const parsed = parseCall(formula);
        expect(parsed).toEqual({ name: spec.name, args });
        // outside the literals only the call's own syntax remains
        expect(formula.replace(/"(?:[^"]|"")*"/g, "")).toBe(`=PRICES.${spec.name}(${",".repeat(args.length - 1)})`);
      }),
    );
  });
});

describe("reading formulas back", () => {
  it("reads literals, references, booleans and empty arguments", () => {
    expect(parseCall('=PRICES.PRICE(A1, "2024-03-01" ,,"mid", TRUE, -1.5)')).toEqual({
      name: "PRICE",
      args: [{ kind: "ref", address: "A1" }, text("2024-03-01"), omitted, text("mid"), { kind: "boolean", value: true }, { kind: "number", value: -1.5 }],
    });
    expect(parseCall("=prices.instruments()")).toEqual({ name: "INSTRUMENTS", args: [] });
    // Excel's saved form of a JavaScript custom function writes the namespace's dot as an underscore (office-js #2568, #5611).
    expect(parseCall("=_xldudf_PRICES_INSTRUMENTS()")).toEqual({ name: "INSTRUMENTS", args: [] });
    expect(parseCall("=_xldudf_prices_mid(A1)")?.name).toBe("MID");
  });

  it("gives up on anything it cannot trace", () => {
    expect(parseCall("=SUM(A1:A3)")).toBeUndefined();
    expect(parseCall('=PRICES.MID(CONCAT("A","B"))')).toBeUndefined();
    expect(parseCall('=PRICES.MID("open')).toBeUndefined();
    expect(parseCall("42")).toBeUndefined();
  });
});
