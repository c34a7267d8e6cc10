import { parseConfig } from "../../src/workbench/config";

describe("the workbench's config file", () => {
  it("keeps a frozen today that is a calendar day", () => {
    expect(parseConfig({ today: "2024-02-29" }).today).toBe("2024-02-29");
  });

  it.each(["2024-13-45", "2023-02-29", "2024-6-1", "June"])("leaves out a today that is no calendar day: %s", (today) => {
    expect(parseConfig({ today }).today).toBeUndefined();
  });
});
