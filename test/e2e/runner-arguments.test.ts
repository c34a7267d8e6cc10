/** The runner's command line alone: secrets come from the environment only, and --api must be https (or loopback http). */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArguments, UsageError } from "../../src/runner/arguments";

const BOOK = "book.json";
const API = "https://prices.example/physical/v2";

/** The UsageError message parseArguments throws (fails the test when it parses). */
function refusal(argv: readonly string[], env: Record<string, string> = {}): string {
  try {
    parseArguments(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`expected ${argv.join(" ")} to be refused`);
}

describe("the workbook runner's arguments", () => {
  it("refuses --token and --client-secret, naming the environment variable and never echoing the value", () => {
    for (const argv of [
      [BOOK, "--api", API, "--token", "secret-token-1"],
      [BOOK, "--api", API, "--token=secret-token-1"],
    ]) {
      const message = refusal(argv);
      expect(message).toBe("--token is no longer accepted: a secret on the command line shows in ps and the shell history; set PRICES_TOKEN in the environment instead");
      expect(message).not.toContain("secret-token-1");
    }
    const message = refusal([BOOK, "--api", API, "--token-url", "https://prices.example/auth/token", "--client-id", "c", "--client-secret", "secret-2"]);
    expect(message).toBe("--client-secret is no longer accepted: a secret on the command line shows in ps and the shell history; set PRICES_CLIENT_SECRET in the environment instead");
  });

  it("takes the value mode, plain or rich", () => {
    expect(parseArguments([BOOK, "--values", "rich"], {}).valueMode).toBe("rich");
    expect(parseArguments([BOOK], {}).valueMode).toBeUndefined();
    expect(refusal([BOOK, "--values", "fancy"])).toBe("--values must be plain or rich, got fancy");
  });

  it("takes the book's date system, 1900 or 1904", () => {
    expect(parseArguments([BOOK, "--date-system", "1904"], {}).dateSystem).toBe("1904");
    expect(parseArguments([BOOK], {}).dateSystem).toBeUndefined();
    expect(refusal([BOOK, "--date-system", "1905"])).toBe("--date-system must be 1900 or 1904, got 1905");
  });

  it("takes --today with --api as the day that overrides the service's own", () => {
    expect(parseArguments([BOOK, "--api", API, "--today", "2025-06-30"], { PRICES_TOKEN: "tok-1" }).service).toEqual({ kind: "token", apiUrl: API, token: "tok-1", today: "2025-06-30" });
    expect(parseArguments([BOOK, "--api", API], { PRICES_TOKEN: "tok-1" }).service).not.toHaveProperty("today");
  });

  it("refuses a secret holding a control character, without quoting it (a header would refuse it quoting the whole value)", () => {
    for (const [env, name] of [[{ PRICES_TOKEN: "tok-\n1" }, "PRICES_TOKEN"], [{ PRICES_TOKEN: "tok\u00001" }, "PRICES_TOKEN"], [{ PRICES_CLIENT_SECRET: "s\r-1" }, "PRICES_CLIENT_SECRET"]] as const) {
      const argv = name === "PRICES_TOKEN" ? [BOOK, "--api", API] : [BOOK, "--api", API, "--token-url", "https://prices.example/auth/token", "--client-id", "client-1"];
      const message = refusal(argv, env);
      expect(message).toBe(`${name} holds a control character (a line break, a tab?): set it to the secret alone, on one line`);
      expect(message).not.toContain("tok");
    }
  });

  it("takes the bearer token from PRICES_TOKEN", () => {
    expect(parseArguments([BOOK, "--api", API], { PRICES_TOKEN: " tok-1\n" })).toEqual({ bookPath: resolve(BOOK), service: { kind: "token", apiUrl: API, token: "tok-1" } });
  });

  it("takes the client secret from PRICES_CLIENT_SECRET with --token-url and --client-id", () => {
    expect(parseArguments([BOOK, "--api", API, "--token-url", "https://prices.example/auth/token", "--client-id", "client-1"], { PRICES_CLIENT_SECRET: "s-1", PRICES_TOKEN: "ignored" })).toEqual({
      bookPath: resolve(BOOK),
      service: { kind: "client", apiUrl: API, tokenUrl: "https://prices.example/auth/token", clientId: "client-1", clientSecret: "s-1" },
    });
  });

  it("says which variable is missing", () => {
    expect(refusal([BOOK, "--api", API])).toBe("--api needs a token in PRICES_TOKEN, or --token-url and --client-id with PRICES_CLIENT_SECRET");
    expect(refusal([BOOK, "--api", API, "--token-url", "https://prices.example/auth/token", "--client-id", "c"])).toBe("--token-url and --client-id need the client secret in PRICES_CLIENT_SECRET");
    expect(refusal([BOOK, "--api", API, "--client-id", "c"], { PRICES_CLIENT_SECRET: "s" })).toBe("--token-url and --client-id go together");
  });

  it("refuses plain http for --api and --token-url except to this machine", () => {
    expect(refusal([BOOK, "--api", "http://prices.example/physical/v2"], { PRICES_TOKEN: "t" })).toBe(
      "--api must be an https URL (http only for localhost, 127.0.0.1 or [::1]), got http://prices.example",
    );
    expect(refusal([BOOK, "--api", API, "--token-url", "http://prices.example/auth/token", "--client-id", "c"], { PRICES_CLIENT_SECRET: "s" })).toMatch(/^--token-url must be an https URL/);
    expect(refusal([BOOK, "--api", "ftp://prices.example/x"], { PRICES_TOKEN: "t" })).toMatch(/^--api must be an https URL/);
    for (const local of ["http://localhost:4000/physical/v2", "http://127.0.0.1:4000/physical/v2", "http://[::1]:4000/physical/v2"]) {
      expect(parseArguments([BOOK, "--api", local], { PRICES_TOKEN: "t" }).service).toEqual({ kind: "token", apiUrl: local, token: "t" });
    }
  });

  it("ignores the variables when the runner starts its own sandbox", () => {
    expect(parseArguments([BOOK], { PRICES_TOKEN: "t", PRICES_CLIENT_SECRET: "s" })).toEqual({ bookPath: resolve(BOOK), service: { kind: "sandbox" } });
  });

  it("reads its options with parseArgs: unknown options and missing values are refused", () => {
    expect(refusal([BOOK, "--frobnicate"])).toMatch(/Unknown option '--frobnicate'/);
    expect(refusal([BOOK, "--today"])).toMatch(/--today/);
  });

  describe("with a workbook file", () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "prices-runner-args-"));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("takes --out, --freeze and --report, an .xlsm into an .xlsm", () => {
      const model = join(dir, "model.xlsm");
      expect(parseArguments([model, "--out", join(dir, "copy.xlsm"), "--freeze", "--report", join(dir, "report.json")], {})).toEqual({
        bookPath: model,
        service: { kind: "sandbox" },
        out: join(dir, "copy.xlsm"),
        freeze: true,
        report: join(dir, "report.json"),
      });
      expect(refusal([model, "--out", join(dir, "copy.xlsx")])).toBe(`--out must end in .xlsm like the input, got ${join(dir, "copy.xlsx")}`);
      expect(refusal([BOOK, "--report", "r.json"])).toBe("--out, --freeze and --report apply to a workbook file (.xlsx, .xlsm)");
    });

    it("refuses an --out that is the input through a symlink, or a symlinked folder", () => {
      const model = join(dir, "model.xlsx");
      writeFileSync(model, "not read here");
      symlinkSync(model, join(dir, "link.xlsx"));
      symlinkSync(dir, join(dir, "same-folder"));
      for (const out of [join(dir, "link.xlsx"), join(dir, "same-folder", "model.xlsx")]) {
        expect(refusal([model, "--out", out])).toMatch(/^--out must name another file/);
      }
    });
  });
});
