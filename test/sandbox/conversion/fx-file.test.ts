/** fx-rates.json: what the export writes loads back as it was; a damaged file is refused naming the row and field. */
import { fxRatesText, loadFxRates } from "../../../src/sandbox/data/fx-file";
import { generateFxRates } from "../../../src/sandbox/data/fx-rates";

describe("fx-rates.json", () => {
  it("loads what it wrote, rate for rate", () => {
    const rates = generateFxRates(7, "2006-02-28");
    const loaded = loadFxRates(JSON.parse(fxRatesText(rates, "USD")));
    expect(loaded.firstDay).toBe(rates.firstDay);
    expect(loaded.length).toBe(rates.length);
    expect([...loaded.perUsd.keys()]).toEqual([...rates.perUsd.keys()]);
    for (const [id, column] of rates.perUsd) expect(loaded.perUsd.get(id)).toEqual(column);
  });

  it("gives the same rates for the same seed, and a later today only adds days", () => {
    const early = generateFxRates(7, "2006-02-28");
    const later = generateFxRates(7, "2030-01-31");
    for (const [id, column] of early.perUsd) expect(later.perUsd.get(id)?.subarray(0, early.length)).toEqual(column);
    expect(generateFxRates(8, "2006-02-28").perUsd.get("EUR")).not.toEqual(early.perUsd.get("EUR"));
  });

  it("refuses a missing day, naming the row and the date it expected", () => {
    const file = { base: "USD", currencies: ["USD", "EUR"], rates: [["2005-01-01", 1, 0.76], ["2005-01-03", 1, 0.77]] };
    expect(() => loadFxRates(file)).toThrow("fx-rates.json.rates[1][0]: expected 2005-01-02 (one row a day, no gaps), got 2005-01-03");
  });

  it("refuses a rate that is not a positive number, naming the currency", () => {
    const file = { base: "USD", currencies: ["USD", "EUR"], rates: [["2005-01-01", 1, -0.76]] };
    expect(() => loadFxRates(file)).toThrow("fx-rates.json.rates[0][2]: expected a positive rate for EUR, got -0.76");
  });
});
