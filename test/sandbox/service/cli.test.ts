import { parseCommandLine, UsageError } from "../../../src/sandbox/cli";

describe("the sandbox command line", () => {
  it("has the documented defaults", () => {
    const { options, exportDir } = parseCommandLine([]);
    expect(options).toMatchObject({ port: 4000, host: "localhost", rateLimit: 0, vendor: "sandbox", limits: { maxSymbols: 500, maxDates: 250, maxRecords: 100_000 } });
    // No lifetime unless given: the token service's own defaults apply (3600 s, 7200 s for service keys).
    expect(options.tokenTtl).toBeUndefined();
    expect(options.serviceKeyTtl).toBeUndefined();
    expect(exportDir).toBeUndefined();
  });

  it("reads every flag, as `--flag value` or `--flag=value`", () => {
    const { options, exportDir } = parseCommandLine([
      "--port=0", "--today", "2025-3-1", "--seed", "9", "--data", "d", "--limit-symbols", "5", "--limit-dates=6", "--limit-records", "7",
      "--rate-limit", "8", "--token-ttl", "60", "--servicekey-ttl", "90", "--faults", "500:0.1", "--vendor", "acme", "--export", "out", "--cors-origin", "https://localhost:8443", "--quiet",
    ]);
    expect(options).toMatchObject({ port: 0, today: "2025-03-01", seed: 9, dataDir: "d", limits: { maxSymbols: 5, maxDates: 6, maxRecords: 7 }, rateLimit: 8, tokenTtl: 60, serviceKeyTtl: 90, faults: "500:0.1", vendor: "acme", corsOrigins: ["https://localhost:8443"], quiet: true });
    expect(exportDir).toBe("out");
  });

  it("reads withdrawn entitlements, several per caller (issue 28)", () => {
    const { options } = parseCommandLine(["--withdraw", "sandbox-full:AG-", "--withdraw=sandbox-full:EN-", "--withdraw", "analyst:MB-"]);
    expect(options.withdrawn).toEqual({ "sandbox-full": ["AG-", "EN-"], analyst: ["MB-"] });
  });

  it.each([["--port", "99999"], ["--today", "2025-02-30"], ["--faults", "boom:1"], ["--limit-records", "0"], ["--seed"], ["--what"], ["--withdraw", "AG-"], ["--withdraw", "sandbox-full:"]])("refuses %s %s", (...argv) => {
    expect(() => parseCommandLine(argv.filter((a): a is string => a !== undefined))).toThrow(UsageError);
  });
});

describe("the sandbox's URL flags", () => {
  it("take https, and http to this machine only", () => {
    expect(parseCommandLine(["--cors-origin", "http://localhost:3000"]).options.corsOrigins).toEqual(["http://localhost:3000"]);
    expect(() => parseCommandLine(["--cors-origin", "http://prices.example"])).toThrow("--cors-origin must be an https URL (http only for localhost, 127.0.0.1 or [::1]), got http://prices.example");
    expect(() => parseCommandLine(["--redirect-uri", "http://evil.example/auth-dialog.html"])).toThrow(UsageError);
  });
});
