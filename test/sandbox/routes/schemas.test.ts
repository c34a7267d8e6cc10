/**
 * The route schemas against JSON Schema's meta-schema: a sandbox starts without that check (checkSchemas, ~70 ms of
 * each start), so this test is where a malformed schema is caught.
 */
import { fixtureApp } from "./setup";

describe("the sandbox's route schemas", () => {
  it("all pass JSON Schema's meta-schema as fastify compiles them", async () => {
    const app = await fixtureApp({ checkSchemas: true });
    try {
      await expect(app.ready()).resolves.toBe(app);
    } finally {
      await app.close();
    }
  });

  it("a route schema that breaks the meta-schema stops the start when checked", async () => {
    const app = await fixtureApp({ checkSchemas: true });
    app.get("/physical/v2/broken", { schema: { querystring: { type: "object", required: "Symbols" } } }, () => "never");
    try {
      await expect(app.ready()).rejects.toThrow(/schema/i);
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});
