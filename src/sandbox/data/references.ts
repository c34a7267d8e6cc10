/** The six reference lists of spec 4.5 for the generated data, built from the catalogue. */
import { CALCULATION_TYPES, REFERENCE_TYPES, unitConversionIds, type CalculationType, type ReferenceGroup, type ReferenceItem, type ReferenceType } from "../../api";
import { COMMODITIES, CURRENCIES, INCOTERMS, SOURCES, UNITS } from "./catalogue";

const CALCULATION_TYPE_TEXT: Readonly<Record<CalculationType, { description: string; sign: string }>> = {
  None: { description: "Assessed value (no calculation)", sign: "" },
  WeeklyAverage: { description: "Weekly average (ISO week, Monday to Sunday)", sign: "WA" },
  MonthlyAverage: { description: "Monthly average (calendar month)", sign: "MA" },
  QuarterlyAverage: { description: "Quarterly average (calendar quarter)", sign: "QA" },
  YearlyAverage: { description: "Yearly average (calendar year)", sign: "YA" },
};

/** The `PriceCalculationType` group: `None` and the four averages. */
export function calculationTypeReference(): ReferenceGroup {
  return {
    type: "PriceCalculationType",
    items: CALCULATION_TYPES.map((id) => ({ id, ...CALCULATION_TYPE_TEXT[id], availableConversionIds: [] })),
  };
}

function items(type: ReferenceType): ReferenceItem[] {
  switch (type) {
    case "Currency":
      // Any currency converts into every other one: the generated FX table (fx-rates.ts) holds them all.
      return CURRENCIES.map(({ id, description, sign }) => ({
        id,
        description,
        sign,
        availableConversionIds: CURRENCIES.filter((other) => other.id !== id).map((other) => other.id),
      }));
    case "UnitOfMeasure":
      // Exactly the units with a factor (api/conversion.ts): mass units, and bushels where a commodity has a bushel weight.
      return UNITS.map(({ id, description, sign }) => ({
        id,
        description,
        sign,
        availableConversionIds: unitConversionIds(id, UNITS.map((unit) => unit.id)),
      }));
    case "PriceCalculationType":
      return calculationTypeReference().items;
    case "Incoterm":
      return INCOTERMS.map(({ id, description, sign }) => ({ id, description, sign, availableConversionIds: [] }));
    case "Commodity":
      return COMMODITIES.map(({ id, name, sign }) => ({ id, description: name, sign, availableConversionIds: [] }));
    case "Source":
      return SOURCES.map(({ id, description, sign }) => ({ id, description, sign, availableConversionIds: [] }));
  }
}

export function generatedReferences(): ReferenceGroup[] {
  return REFERENCE_TYPES.map((type) => ({ type, items: items(type) }));
}
