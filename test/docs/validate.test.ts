/** npm run validate's parts: the offline schema check and the quick reachability probe that decides the online one. */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { validateManifestSchema, XSD_DIR } from "../../scripts/manifest-schema";
import { serviceReachable } from "../../scripts/validate";

const ROOT = resolve(__dirname, "../..");

describe("npm run validate", () => {
  it("finds manifest.xml valid against the Office XSDs", async () => {
    const result = await validateManifestSchema(readFileSync(join(ROOT, "manifest.xml"), "utf8"));
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("rejects a broken manifest with the validator's messages", async () => {
    const result = await validateManifestSchema(readFileSync(join(XSD_DIR, "negative/missing-id.xml"), "utf8"), "missing-id.xml");
    expect(result.valid).toBe(false);
    expect(result.errors.length).toBeGreaterThan(0);
  });

  it("says a host that cannot resolve is unreachable, so the online check is skipped", async () => {
    expect(await serviceReachable("validation.example.invalid", 2000)).toBe(false);
  });
});
