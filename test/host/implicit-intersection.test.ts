import type { Expression } from "../../src/formula/parse";
import { hostFormulaParser } from "../../src/host/formula";
import { asLegacyFormula } from "../../src/host/implicit-intersection";

const parse = hostFormulaParser();

/** The formula as text again, `@` where the legacy form takes one value. */
function shown(expression: Expression): string {
  switch (expression.kind) {
    case "reference":
      return expression.text;
    case "literal":
      return String(expression.value);
    case "call":
      return `${expression.name}(${expression.args.map(shown).join(",")})`;
    case "unary":
      return `${expression.operator}${shown(expression.operand)}`;
    case "binary":
      return `(${shown(expression.left)}${expression.operator}${shown(expression.right)})`;
    default:
      return expression.kind;
  }
}

describe("asLegacyFormula", () => {
  it("puts @ where Excel shows it and keeps every node whose parts it does not change", () => {
    const call = parse("=PRICES.MID($A2,B$1)");
    const legacy = asLegacyFormula(call);
    expect(shown(legacy)).toBe("@PRICES.MID($A2,B$1)");
    // the custom call's arguments stay as written: the call itself is kept, not copied
    expect(legacy.kind === "unary" && legacy.operand).toBe(call);
    const ratio = parse("=C2/B2-1");
    const legacyRatio = asLegacyFormula(ratio);
    expect(shown(legacyRatio)).toBe("((@C2/@B2)-1)");
    expect(legacyRatio.kind === "binary" && legacyRatio.right).toBe(ratio.kind === "binary" && ratio.right);
    const sum = parse("=SUM(A1:A3)+1");
    expect(shown(asLegacyFormula(sum))).toBe("(@SUM(A1:A3)+1)");
    expect(shown(asLegacyFormula(parse("=UPPER(R1:R3)&-A1")))).toBe("(@UPPER(@R1:R3)&-@A1)");
    // nothing to change: the very tree
    const constant = parse("=1+2");
    expect(asLegacyFormula(constant)).toBe(constant);
  });
});
