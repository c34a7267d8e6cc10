/** One search rule for PRICES.INSTRUMENTS and the pane, and the reasons an empty search gives. */
import type { InstrumentRecord, ReferenceGroup } from "../../src/api";
import { closeWords, editDistance, matchesWords, noMatchReason, searchWords } from "../../src/functions/instrument-search";

const record = (symbol: string, description: string, commodityId: string, frequency = "Weekly"): InstrumentRecord =>
  ({
    symbol, description, descriptionShort: description.split(" ").slice(0, 2).join(" "), commodityId, locationId: "NL-RTM", currencyId: "USD", unitOfMeasureId: "MT",
    incotermId: "CIF", sourceId: "FASTMARKETS", productId: "P1", priceType: "Price", frequency, status: "Active", launchDate: "2005-01-03", priceCalculationTypeIds: ["None"],
  }) as InstrumentRecord;

const METALS = [record("MB-AL-0004", "Aluminium P1020A premium, in-whs Rotterdam", "ALUMINIUM"), record("MB-CU-0001", "Copper grade A cathode", "COPPER", "Daily")];
const COMMODITIES: ReferenceGroup = {
  type: "Commodity",
  items: [
    { id: "ALUMINIUM", description: "Aluminium", sign: "Al" },
    { id: "COPPER", description: "Copper", sign: "Cu" },
    { id: "WHEAT", description: "Wheat", sign: "" },
  ],
} as ReferenceGroup;

describe("matching", () => {
  it("needs every word in the symbol, the descriptions or an id, and ignores the frequency", () => {
    expect(METALS.filter((r) => matchesWords(r, searchWords("premium ROTTERDAM"))).map((r) => r.symbol)).toEqual(["MB-AL-0004"]);
    expect(METALS.filter((r) => matchesWords(r, searchWords("nl-rtm usd"))).length).toBe(2);
    expect(METALS.filter((r) => matchesWords(r, searchWords("weekly"))).length).toBe(0);
    expect(METALS.filter((r) => matchesWords(r, searchWords(""))).length).toBe(2);
  });

  it("finds the US spelling of a British one and the other way round, and the product id", () => {
    expect(METALS.filter((r) => matchesWords(r, searchWords("Aluminum"))).map((r) => r.symbol)).toEqual(["MB-AL-0004"]);
    const us = [record("MB-AL-0009", "Aluminum alloy", "ALUMINIUM")];
    expect(us.filter((r) => matchesWords(r, searchWords("aluminium"))).length).toBe(1);
    expect([{ ...METALS[0], productId: "AL-P1020A" } as InstrumentRecord].filter((r) => matchesWords(r, searchWords("al-p1020a"))).length).toBe(1);
  });
});

describe("a symbol outside the entitlement", () => {
  it("names the entitlement instead of saying nothing holds it", () => {
    expect(noMatchReason(METALS, "AG-WHE-0058", COMMODITIES)).toContain("'AG-WHE-0058' is a symbol of the AG- family, outside your account's entitlement: it sees MB- instruments only");
  });
});

describe("an empty search says why", () => {
  it("suggests the close word for a typo", () => {
    expect(editDistance("alumnium", "aluminium")).toBe(1);
    expect(editDistance("copepr", "copper")).toBe(1);
    expect(closeWords(METALS, "alumnium")).toEqual(["aluminium"]);
    expect(noMatchReason(METALS, "alumnium", COMMODITIES)).toBe("no instrument you may see matches 'alumnium'; nothing holds 'alumnium': did you mean aluminium? (searched: symbol, description and ids)");
  });

  it("names a commodity outside the account's entitlement and what the account sees", () => {
    expect(noMatchReason(METALS, "wheat", COMMODITIES)).toBe(
      "no instrument you may see matches 'wheat'; 'wheat' is the commodity Wheat, which your account does not see: it sees 2 instruments of Aluminium, Copper only (searched: symbol, description and ids)",
    );
  });

  it("says when each word is found but never together", () => {
    expect(noMatchReason(METALS, "copper premium", COMMODITIES)).toContain("each word is found, but in no one instrument together");
  });
});
