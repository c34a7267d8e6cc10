/** npm start's options and its message for a taken port (the full stack runs in workbench.test.ts). */
import { createServer, type Server } from "node:net";
import { parseStartArguments, PortInUseError, startStack, UsageError } from "../../scripts/start";

describe("npm start options", () => {
  it("defaults to the manifest's port 3000 and the sandbox's 4000", () => {
    expect(parseStartArguments([])).toEqual({ port: 3000, apiPort: 4000 });
  });

  it("takes free ports (0) and a frozen today", () => {
    expect(parseStartArguments(["--port", "0", "--api-port", "0", "--today", "2025-06-30"])).toEqual({ port: 0, apiPort: 0, today: "2025-06-30" });
  });

  it.each([[["--port"]], [["--port", "x"]], [["--api-port", "70000"]], [["--today", "June"]], [["--verbose"]]])("refuses %j", (argv) => {
    expect(() => parseStartArguments(argv)).toThrow(UsageError);
  });
});

describe("a taken port", () => {
  let holder: Server;
  let port = 0;

  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((done) => holder.listen({ port: 0, host: "localhost" }, done));
    const address = holder.address();
    port = typeof address === "object" && address !== null ? address.port : 0;
  });

  afterAll(async () => {
    await new Promise((done) => holder.close(done));
  });

  it("is reported with the port, its role and the option that changes it, before anything starts", async () => {
    const failure = await startStack({ port, apiPort: 0 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PortInUseError);
    expect((failure as Error).message).toBe(
      `port ${port} (the add-in's dev server) is taken by another program, perhaps an earlier npm start; stop it, or choose another port with --port N (0 = any free port)`,
    );
  });

  it("names --api-port when the sandbox's port is the taken one", async () => {
    await expect(startStack({ port: 0, apiPort: port })).rejects.toThrow(`port ${port} (the sandbox) is taken`);
  });
});
