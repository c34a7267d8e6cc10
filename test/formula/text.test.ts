import { cellValueText, generalNumber, scalarText } from "../../src/formula/text";

describe("constants as Excel writes them", () => {
  it("shows numbers with at most ten significant digits and no trailing zeros", () => {
    expect(generalNumber(42)).toBe("42");
    expect(generalNumber(1 / 3)).toBe("0.3333333333");
    expect(generalNumber(2.5)).toBe("2.5");
    expect(generalNumber(0.1 + 0.2)).toBe("0.3");
  });

  it("writes booleans in capitals and text as it is", () => {
    expect(scalarText(true)).toBe("TRUE");
    expect(scalarText(false)).toBe("FALSE");
    expect(scalarText("MB-AL-0004")).toBe("MB-AL-0004");
    expect(scalarText(-1.25)).toBe("-1.25");
  });
});

describe("any cell value as text", () => {
  it("shows an error cell as its code in each form it comes in, never as [object Object]", () => {
    expect(cellValueText({ kind: "error", code: "#N/A", message: "no assessment" })).toBe("#N/A");
    expect(cellValueText({ error: "#DIV/0!" })).toBe("#DIV/0!");
    expect(cellValueText({ type: "Error", errorType: "NotAvailable", basicValue: "#N/A" })).toBe("#N/A");
  });

  it("shows a blank as nothing, scalars as Excel writes them and any other object as nothing", () => {
    expect(cellValueText(null)).toBe("");
    expect(cellValueText(undefined)).toBe("");
    expect(cellValueText(0.1 + 0.2)).toBe("0.3");
    expect(cellValueText(true)).toBe("TRUE");
    expect(cellValueText(" MB-AL-0004 ")).toBe(" MB-AL-0004 ");
    expect(cellValueText({ unrelated: 1 })).toBe("");
    expect(cellValueText([[1]])).toBe("");
  });
});
