import { generalNumber, scalarText } from "../../src/formula/text";

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
