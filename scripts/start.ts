/**
 * `npm start`: the local sandbox (API + token service) and the add-in's HTTPS dev server with the workbench, on
 * certificates the project makes itself. Prints the URLs, the sandbox users and how to sideload manifest.xml;
 * Ctrl-C (or SIGTERM) stops everything it started.
 *
 *   npm start -- [--port 3000] [--api-port 4000] [--today YYYY-MM-DD]      (0 = any free port)
 *
 * `startStack(options)` does the same for tests and scripts/screenshots.ts.
 */
import { createServer } from "node:net";
import { relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import webpack, { type Configuration } from "webpack";
import WebpackDevServer from "webpack-dev-server";
import { UsageError } from "../src/api/usage-error";
import { ensureCertificates } from "../src/sandbox/auth";
import { startSandbox, type RunningSandbox } from "../src/sandbox/server";
import { demoTokenRoute, type DemoTokenRoute } from "../src/workbench/demo-token-route";

const ROOT = resolve(__dirname, "..");
export const DEFAULT_ADDIN_PORT = 3000;
export const DEFAULT_API_PORT = 4000;

export interface StackOptions {
  /** Add-in dev server port (3000; 0 = any free port). The manifest names 3000. */
  port: number;
  /** Sandbox port (4000; 0 = any free port). */
  apiPort: number;
  /** Freeze the sandbox data's "today". */
  today?: string;
  /** `--live-demo`: the sandbox publishes while you watch (its clock from 14:30 UTC today, 30 times faster), and the workbench's live cells follow that clock. */
  liveDemo?: boolean;
  /** Progress lines (compilation); silent when absent. */
  log?: (line: string) => void;
}

export interface RunningStack {
  /** `https://localhost:3000` */
  readonly origin: string;
  readonly workbenchUrl: string;
  readonly sandbox: RunningSandbox;
  close(): Promise<void>;
}

/** A port another program holds: `npm start` explains it instead of printing a stack trace. */
export class PortInUseError extends Error {
  override readonly name = "PortInUseError";
  constructor(
    readonly port: number,
    readonly role: string,
    readonly option: string,
  ) {
    super(`port ${port} (${role}) is taken by another program, perhaps an earlier npm start; stop it, or choose another port with ${option} N (0 = any free port)`);
  }
}

export { UsageError };

/** The live demo's clock: from 14:30 UTC today (before the metals' London afternoon publications), 2 s of real time a minute. */
export const LIVE_DEMO = { startUtc: "14:30:00Z", speed: 30 } as const;

export const USAGE = `Usage: npm start -- [--port N] [--api-port N] [--today YYYY-MM-DD] [--live-demo]
  --port N        the add-in's HTTPS dev server (default 3000, the port manifest.xml names; 0 = any free port)
  --api-port N    the sandbox's API and token service (default 4000; 0 = any free port)
  --today DATE    freeze the sandbox data's "today"
  --live-demo     the sandbox publishes while you watch: its clock runs from 14:30 UTC today, 30 times faster;
                  type =PRICES.LIVE("MB-AL-0004") in the workbench and see it change when the assessment comes out`;

export function parseStartArguments(argv: readonly string[]): StackOptions {
  let parsed: { values: { port?: string; "api-port"?: string; today?: string; "live-demo"?: boolean } };
  try {
    parsed = parseArgs({ args: [...argv], options: { port: { type: "string" }, "api-port": { type: "string" }, today: { type: "string" }, "live-demo": { type: "boolean" } }, strict: true, allowPositionals: false });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message.split("\n")[0] ?? "bad option" : String(error));
  }
  const port = (text: string | undefined, flag: string, fallback: number): number => {
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!/^\d+$/.test(text) || value > 65535) throw new UsageError(`${flag} needs a port number from 0 to 65535`);
    return value;
  };
  const { values } = parsed;
  const options: StackOptions = { port: port(values.port, "--port", DEFAULT_ADDIN_PORT), apiPort: port(values["api-port"], "--api-port", DEFAULT_API_PORT) };
  if (values.today !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(values.today)) throw new UsageError("--today needs a date YYYY-MM-DD");
    options.today = values.today;
  }
  if (values["live-demo"] === true) {
    if (options.today !== undefined) throw new UsageError("--live-demo runs its own clock: give it without --today");
    options.liveDemo = true;
  }
  return options;
}

/** Resolves with a port that is free now: the one asked for, or any when 0; PortInUseError when taken. */
function claimPort(port: number, role: string, option: string): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => fail(error.code === "EADDRINUSE" || error.code === "EACCES" ? new PortInUseError(port, role, option) : error));
    probe.listen({ port, host: "localhost" }, () => {
      const address = probe.address();
      const chosen = typeof address === "object" && address !== null ? address.port : port;
      probe.close(() => done(chosen));
    });
  });
}

/** webpack.config.js as `webpack --mode development` builds it, quiet. */
function developmentConfig(): Configuration {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- webpack.config.js is CommonJS outside the TypeScript program: required at run time, as webpack-cli does
  const factory = require(resolve(ROOT, "webpack.config.js")) as (env: Record<string, unknown>, argv: Record<string, unknown>) => Configuration;
  return { ...factory({}, { mode: "development" }), infrastructureLogging: { level: "warn" }, stats: "none" };
}

export async function startStack(options: StackOptions): Promise<RunningStack> {
  const log = options.log ?? (() => undefined);
  const certificates = await ensureCertificates();
  const port = await claimPort(options.port, "the add-in's dev server", "--port");
  const apiPort = options.apiPort === 0 ? 0 : await claimPort(options.apiPort, "the sandbox", "--api-port");
  const origin = `https://localhost:${port}`;
  const sandbox = await startSandbox({
    port: apiPort,
    quiet: true,
    ...(options.today === undefined ? {} : { today: options.today }),
    ...(options.liveDemo === true ? { live: { speed: LIVE_DEMO.speed }, now: `${new Date().toISOString().slice(0, 10)}T${LIVE_DEMO.startUtc}` } : {}),
    corsOrigins: [origin],
    redirectUris: ["taskpane.html", "auth-dialog.html", "auth-silent.html", "workbench.html", "workbench-pane.html"].map((page) => `${origin}/${page}`),
  });
  let server: WebpackDevServer | undefined;
  let demoTokens: DemoTokenRoute | undefined;
  try {
    const compiler = webpack(developmentConfig());
    const firstBuild = new Promise<void>((done) => {
      let first = true;
      compiler.hooks.done.tap("start", (stats) => {
        const seconds = ((stats.endTime - stats.startTime) / 1000).toFixed(1);
        if (stats.hasErrors()) log(`build failed in ${seconds} s:\n${stats.toString("errors-only")}`);
        else log(`${first ? "built" : "rebuilt"} in ${seconds} s`);
        if (first) done();
        first = false;
      });
    });
    const tokens = demoTokenRoute({ issuer: sandbox.issuer, ca: sandbox.ca });
    demoTokens = tokens;
    const config = {
      apiUrl: sandbox.apiUrl,
      issuer: sandbox.issuer,
      ...(options.today === undefined ? {} : { today: options.today }),
      // the workbench's live cells run on the sandbox's fast clock
      ...(sandbox.live ? { liveClock: sandbox.live.clock.setting() } : {}),
    };
    server = new WebpackDevServer(
      {
        port,
        host: "localhost",
        server: { type: "https", options: { key: certificates.key, cert: certificates.cert, ca: certificates.ca } },
        headers: { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "*", "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS" },
        static: false,
        hot: false,
        liveReload: false,
        client: false,
        setupMiddlewares: (middlewares) => {
          // The workbench reads where the sandbox runs (it may not be on 4000).
          middlewares.unshift({
            name: "workbench-config",
            path: "/workbench-config.json",
            middleware: (_request: unknown, response: { setHeader(name: string, value: string): void; end(body: string): void }) => {
              response.setHeader("content-type", "application/json");
              response.setHeader("cache-control", "no-store");
              response.end(JSON.stringify(config));
            },
          });
          middlewares.unshift({
            name: "workbench-home",
            path: "/",
            middleware: (request: { url?: string }, response: { statusCode: number; setHeader(name: string, value: string): void; end(): void }, next: () => void) => {
              if (request.url !== "/") return next();
              response.statusCode = 302;
              response.setHeader("location", "/workbench.html");
              response.end();
            },
          });
          // The demo key's token, held here so page reloads reuse it (src/workbench/demo-token-route.ts).
          middlewares.unshift({ name: "workbench-token", path: tokens.path, middleware: (request: Parameters<DemoTokenRoute["handle"]>[0], response: Parameters<DemoTokenRoute["handle"]>[1]) => tokens.handle(request, response) });
          return middlewares;
        },
      },
      compiler,
    );
    await server.start();
    await firstBuild;
  } catch (error) {
    await server?.stop().catch(() => undefined);
    await demoTokens?.close();
    await sandbox.close();
    throw error;
  }
  const running = server;
  let closing: Promise<void> | undefined;
  return {
    origin,
    workbenchUrl: `${origin}/workbench.html`,
    sandbox,
    close: () =>
      (closing ??= (async () => {
        await running.stop().catch(() => undefined);
        await demoTokens?.close();
        await sandbox.close();
      })()),
  };
}

export function banner(stack: RunningStack, seconds: number): string {
  const ca = relative(process.cwd(), stack.sandbox.caPath) || stack.sandbox.caPath;
  const lines = [
    `Physical Prices for Excel is running (ready in ${seconds.toFixed(1)} s).`,
    "",
    `  Workbench, no Excel needed:   ${stack.workbenchUrl}`,
    `  Add-in files (manifest.xml):  ${stack.origin}/taskpane.html, ${stack.origin}/functions.js`,
    `  Sandbox API:                  ${stack.sandbox.apiUrl}`,
    `  Sign-in (token service):      ${stack.sandbox.issuer}`,
    "  Sandbox users:                analyst / analyst (every instrument), trial / trial (MB- instruments only)",
    `  Certificate authority:        ${ca} (import it into your browser once, or accept the warning once)`,
    "",
    "Sideload manifest.xml into Excel:",
    "  Excel on the web:  Home (or Insert) > Add-ins > More Add-ins > My Add-ins > Upload My Add-in, choose manifest.xml",
    "  Windows / macOS:   npx office-addin-debugging start manifest.xml desktop   (in a second terminal)",
    "  Then Data > Prices opens the task pane; sign in there, and type =PRICES.MID(\"MB-AL-0004\") in a cell.",
  ];
  if (stack.sandbox.live) lines.push("", `Live demo: the sandbox's clock runs ${stack.sandbox.live.clock.speed} times faster from ${new Date(stack.sandbox.live.clock.setting().origin).toISOString()}; type =PRICES.LIVE("MB-AL-0004") in the workbench and watch it change when the assessment comes out.`);
  if (!stack.origin.endsWith(`:${DEFAULT_ADDIN_PORT}`)) lines.push("", `Note: manifest.xml names https://localhost:${DEFAULT_ADDIN_PORT}; Excel only finds the add-in on that port.`);
  lines.push("", "Edits under src/ rebuild automatically; reload the page to see them. Ctrl-C stops everything.");
  return lines.join("\n");
}

async function main(argv: readonly string[]): Promise<number> {
  let options: StackOptions;
  try {
    options = parseStartArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`npm start: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  const started = Date.now();
  process.stdout.write("Starting the sandbox and building the add-in (the first build takes a little while)…\n");
  let stack: RunningStack;
  try {
    stack = await startStack({ ...options, log: (line) => process.stdout.write(`webpack: ${line}\n`) });
  } catch (error) {
    if (error instanceof PortInUseError) {
      process.stderr.write(`npm start: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  process.stdout.write(`\n${banner(stack, (Date.now() - started) / 1000)}\n`);
  await new Promise<void>((done) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      process.stdout.write("\nStopping…\n");
      stack.close().then(done, done);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`npm start: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
