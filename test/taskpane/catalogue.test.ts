/**
 * The formula builder's catalogue (src/taskpane/catalogue.ts) mirrors the functions' JSDoc by hand; these tests
 * compare it with the metadata the generator makes from src/functions/functions.ts (what webpack writes to
 * functions.json): the same functions, parameters in the same order, the same optionality, and choice lists equal
 * to the enumerations Excel offers.
 */
import { join, resolve } from "node:path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import { FUNCTIONS, HISTORY_FIELD_CHOICES, INSTRUMENT_FIELD_CHOICES, PRICE_FIELD_CHOICES, type FunctionSpec } from "../../src/taskpane/catalogue";

const ROOT = resolve(__dirname, "../..");

interface EnumValue {
  stringValue?: string;
  numberValue?: number;
}
interface Parameter {
  name: string;
  optional?: boolean;
  dimensionality?: string;
  customEnumId?: string;
}
interface Metadata {
  functions: { name: string; parameters: Parameter[] }[];
  enums?: { id: string; values: EnumValue[] }[];
}

let metadata: Metadata;

beforeAll(async () => {
  const result = await generateCustomFunctionsMetadata(join(ROOT, "src/functions/functions.ts"));
  expect(result.errors).toEqual([]);
  metadata = JSON.parse(result.metadataJson) as Metadata;
}, 180_000);

function enumValues(id: string): (string | number)[] {
  const found = metadata.enums?.find((item) => item.id === id);
  if (!found) throw new Error(`functions.json has no enum ${id}`);
  return found.values.map((value) => value.stringValue ?? value.numberValue ?? "");
}

const sorted = (values: readonly (string | number)[]): string[] => values.map(String).sort();

function spec(name: string): FunctionSpec {
  const found = FUNCTIONS.find((fn) => fn.name === name);
  if (!found) throw new Error(`the catalogue lacks ${name}`);
  return found;
}

describe("the formula builder's catalogue against the generated functions.json", () => {
  it("lists the same functions", () => {
    expect(FUNCTIONS.map((fn) => fn.name).sort()).toEqual(metadata.functions.map((fn) => fn.name).sort());
  });

  it("gives every function the same parameters, in the same order, equally optional", () => {
    for (const fn of metadata.functions) {
      const expected = fn.parameters.map((p) => ({ name: p.name, optional: p.optional === true }));
      const actual = spec(fn.name).parameters.map((p) => ({ name: p.name, optional: p.optional }));
      expect({ fn: fn.name, parameters: actual }).toEqual({ fn: fn.name, parameters: expected });
    }
  });

  it("offers exactly the enumeration's values wherever Excel offers an enumeration", () => {
    for (const fn of metadata.functions) {
      for (const parameter of fn.parameters) {
        const mine = spec(fn.name).parameters.find((p) => p.name === parameter.name);
        if (!parameter.customEnumId) continue;
        expect({ fn: fn.name, parameter: parameter.name, kind: mine?.kind, choices: sorted(mine?.choices ?? []) }).toEqual({
          fn: fn.name,
          parameter: parameter.name,
          kind: "choice",
          choices: sorted(enumValues(parameter.customEnumId)),
        });
      }
    }
  });

  it("offers the number values of a number enumeration as numbers", () => {
    for (const fn of metadata.functions) {
      for (const parameter of fn.parameters.filter((p) => p.customEnumId === "Headers")) {
        const mine = spec(fn.name).parameters.find((p) => p.name === parameter.name);
        expect({ fn: fn.name, choices: mine?.choices }).toEqual({ fn: fn.name, choices: enumValues("Headers") });
      }
    }
  });

  it("keeps choice lists only where the functions enumerate the values", () => {
    for (const fn of metadata.functions) {
      for (const parameter of fn.parameters) {
        const mine = spec(fn.name).parameters.find((p) => p.name === parameter.name);
        if (mine?.kind === "choice") expect({ fn: fn.name, parameter: parameter.name, enumerated: parameter.customEnumId !== undefined }).toEqual({ fn: fn.name, parameter: parameter.name, enumerated: true });
      }
    }
  });

  it("names the same price, history and instrument fields as the functions' enumerations", () => {
    expect(sorted(PRICE_FIELD_CHOICES)).toEqual(sorted(enumValues("PriceField")));
    expect(sorted(HISTORY_FIELD_CHOICES)).toEqual(sorted([...enumValues("PriceField"), "assessed"]));
    expect(sorted(INSTRUMENT_FIELD_CHOICES)).toEqual(sorted(enumValues("InstrumentField")));
  });

  it("marks the range parameters (matrix) as symbols, dates or fields", () => {
    for (const fn of metadata.functions) {
      for (const parameter of fn.parameters.filter((p) => p.dimensionality === "matrix")) {
        const mine = spec(fn.name).parameters.find((p) => p.name === parameter.name);
        expect({ fn: fn.name, parameter: parameter.name, rangeKind: ["symbols", "date", "fields", "text"].includes(mine?.kind ?? "") }).toEqual({ fn: fn.name, parameter: parameter.name, rangeKind: true });
      }
    }
  });
});
