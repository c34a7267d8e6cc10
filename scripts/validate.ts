/**
 * `npm run validate [-- manifest.xml]`: the offline schema check of the manifest (always), then Microsoft's
 * online validation (`office-addin-manifest validate`) when its service is reachable; without network it says
 * so and skips (exit 0). Exit 1 when either check finds errors.
 */
import { lookup } from "node:dns/promises";
import { readFileSync } from "node:fs";
import { connect } from "node:tls";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { validateManifestSchema } from "./manifest-schema";

export const VALIDATION_HOST = "validationgateway.omex.office.net";

/** True when a TLS connection to the validation service opens within `timeoutMs` (DNS included). */
export async function serviceReachable(host = VALIDATION_HOST, timeoutMs = 3000): Promise<boolean> {
  const deadline = new Promise<false>((done) => setTimeout(() => done(false), timeoutMs).unref());
  const attempt = (async (): Promise<boolean> => {
    try {
      await lookup(host);
    } catch {
      return false;
    }
    return new Promise<boolean>((done) => {
      const socket = connect({ host, port: 443, servername: host, timeout: timeoutMs }, () => {
        socket.destroy();
        done(true);
      });
      socket.once("error", () => done(false));
      socket.once("timeout", () => {
        socket.destroy();
        done(false);
      });
    });
  })();
  return Promise.race([attempt, deadline]);
}

async function online(path: string): Promise<number> {
  if (!(await serviceReachable())) {
    process.stdout.write(`online: skipped, ${VALIDATION_HOST} is not reachable from here (no network); run npm run validate where it is\n`);
    return 0;
  }
  const { validateManifest } = await import("office-addin-manifest");
  const validation = await validateManifest(path);
  const report = validation.report;
  for (const issue of report?.errors ?? []) process.stdout.write(`online error: ${issue.title ?? ""}: ${issue.content ?? ""}${issue.line ? ` (line ${issue.line})` : ""}\n`);
  for (const issue of report?.warnings ?? []) process.stdout.write(`online warning: ${issue.title ?? ""}: ${issue.content ?? ""}\n`);
  if (validation.isValid) {
    process.stdout.write("online: valid (Microsoft's validation service)\n");
    return 0;
  }
  process.stdout.write(`online: not valid${validation.status ? ` (status ${validation.status} ${validation.statusText ?? ""})` : ""}\n`);
  return 1;
}

async function main(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true });
  const path = resolve(positionals[0] ?? "manifest.xml");
  const schema = await validateManifestSchema(readFileSync(path, "utf8"), path);
  if (schema.valid) process.stdout.write(`offline: ${path} is valid against the Office XSDs\n`);
  else for (const error of schema.errors) process.stdout.write(`offline error: ${error}\n`);
  const onlineCode = await online(path);
  return schema.valid ? onlineCode : 1;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`validate: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
