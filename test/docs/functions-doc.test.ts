/**
 * docs/functions.md is generated: regenerating it from the functions' JSDoc (the same generator the webpack
 * plugin runs) must give the committed file, and every function, argument and enum value must appear in it.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import { defaultOf, FUNCTIONS_DOC, renderFunctionDocs, valueWords } from "../../scripts/gen-function-docs";

const ROOT = resolve(__dirname, "../..");

describe("docs/functions.md", () => {
  let metadata: { functions: { name: string; parameters: { name: string }[] }[]; enums: { values: { stringValue?: string; numberValue?: number }[] }[] };
  let generated: string;

  beforeAll(async () => {
    const result = await generateCustomFunctionsMetadata(join(ROOT, "src/functions/functions.ts"));
    expect(result.errors).toEqual([]);
    metadata = JSON.parse(result.metadataJson) as typeof metadata;
    generated = renderFunctionDocs(metadata);
  }, 180_000);

  it("matches what the generator makes from the functions' metadata (run npm run docs:functions when it does not)", () => {
    expect(readFileSync(FUNCTIONS_DOC, "utf8")).toBe(generated);
  });

  it("documents every function with its arguments and every enumeration value", () => {
    expect(metadata.functions.length).toBeGreaterThanOrEqual(11);
    for (const fn of metadata.functions) {
      expect(generated).toContain(`## PRICES.${fn.name}\n`);
      const section = generated.slice(generated.indexOf(`## PRICES.${fn.name}\n`)).split("\n## ")[0] ?? "";
      for (const parameter of fn.parameters) expect({ fn: fn.name, parameter: parameter.name, documented: section.includes(`| ${parameter.name} |`) }).toEqual({ fn: fn.name, parameter: parameter.name, documented: true });
      expect(section).toContain("Examples:");
      expect(section).toContain("Errors:");
    }
    for (const item of metadata.enums) for (const value of item.values) expect(generated).toContain(`\`${String(value.stringValue ?? value.numberValue)}\``);
  });

  it("fails for a function it has no example for", () => {
    expect(() => renderFunctionDocs({ functions: [{ id: "NEWFN", name: "NEWFN", parameters: [] }] })).toThrow(/NEWFN/);
  });

  it("reads defaults from descriptions and enum tooltips", () => {
    expect(defaultOf("low, mid (default), high")).toBe("mid");
    expect(defaultOf("serial (Excel dates, default) or text")).toBe("serial");
    expect(defaultOf("Last date; blank for today (default).")).toBe("blank for today");
    expect(defaultOf("anything", [{ stringValue: "b", tooltip: "B (default)." }])).toBe("b");
    expect(defaultOf("no default here")).toBeUndefined();
    expect(defaultOf('Columns, as text "date,low,mid,high" (default) or a range of names: date, low, mid, high.')).toBe("date,low,mid,high");
    expect(defaultOf("Columns, as text or a range of names; default symbol, description, currencyId.")).toBe("symbol, description, currencyId");
  });

  it("says what row 2 of headers holds for each function, not one function's words for all", () => {
    const values = [{ numberValue: 0, tooltip: "No header row." }, { numberValue: 1, tooltip: "One row of column names (default)." }, { numberValue: 2, tooltip: "A title row." }];
    expect(valueWords("headers", "0 none, 1 column names (default), 2 search text and column names.", values)).toEqual(["`0` No header row", "`1` One row of column names (default)", "`2` Search text and column names"]);
    expect(valueWords("headers", "0 none, 1 column names (default), 2 symbol and date, then column names.", values)[2]).toBe("`2` Symbol and date, then column names");
    expect(valueWords("order", "ascending or descending", [{ stringValue: "ascending", tooltip: "Oldest first." }])).toEqual(["`ascending` Oldest first"]);
  });

  it("documents HISTORY's fields default as the whole quoted list, not a fragment of it", () => {
    expect(generated).toContain("| fields | text, number or date or a range | no | date,low,mid,high |");
    expect(generated).not.toContain('| high" |');
  });
});
