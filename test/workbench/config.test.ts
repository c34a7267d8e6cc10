import { parseConfig } from "../../src/workbench/config";

describe("the workbench's config file", () => {
  it("keeps a frozen today that is a calendar day", () => {
    expect(parseConfig({ today: "2024-02-29" }).today).toBe("2024-02-29");
  });

  it.each(["2024-13-45", "2023-02-29", "2024-6-1", "June"])("leaves out a today that is no calendar day: %s", (today) => {
    expect(parseConfig({ today }).today).toBeUndefined();
  });
});

describe("the URL rule of the workbench's config file", () => {
  it("keeps an https URL and http to this machine", () => {
    expect(parseConfig({ apiUrl: "https://prices.example/physical/v2/" }).apiUrl).toBe("https://prices.example/physical/v2");
    expect(parseConfig({ issuer: "http://localhost:4000/auth" }).issuer).toBe("http://localhost:4000/auth");
  });

  it.each(["http://prices.example/physical/v2", "ftp://prices.example", "https://user:pass@prices.example", "not a url"])("falls back to the sandbox for %s", (apiUrl) => {
    expect(parseConfig({ apiUrl }).apiUrl).not.toBe(apiUrl);
    expect(parseConfig({ apiUrl }).apiUrl).toBe(parseConfig({}).apiUrl);
  });
});
