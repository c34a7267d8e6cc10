/**
 * `npm run workbook -- book.json > out.json` must leave out.json the runner's JSON alone. npm 11 writes its
 * "> script" banner to stdout before the script starts (only `json=true` or `--silent` move or hide it, and
 * `json=true` turned `npm install`'s summary into a 4,851-line JSON dump). When stdout is a file holding exactly
 * that banner (the shell's `>` emptied it), the script writes its own output over it, from the file's start.
 */
import fs from "node:fs";

/** The banner npm printed for this run, from the environment npm gives a script; undefined outside npm run. */
export function npmBanner(env: NodeJS.ProcessEnv, args: readonly string[]): string | undefined {
  const event = env["npm_lifecycle_event"];
  const script = env["npm_lifecycle_script"];
  if (event === undefined || script === undefined) return undefined;
  const id = env["npm_package_name"] !== undefined && env["npm_package_version"] !== undefined ? `${env["npm_package_name"]}@${env["npm_package_version"]} ` : "";
  return `\n> ${id}${event}\n> ${script.trim().replace(/\n/g, "\n> ")}${args.length > 0 ? ` ${args.join(" ")}` : ""}\n`;
}

/**
 * A writer that puts text at the start of the file `fd` and onwards, once that file holds only npm's banner
 * (which it truncates); undefined when `fd` is not a file or holds anything else (a pipe, a terminal, `>>` onto
 * earlier content), where output goes on as usual.
 */
export function writerOverBanner(fd: number, banner: string | undefined): ((text: string) => void) | undefined {
  if (banner === undefined) return undefined;
  let stat: fs.Stats;
  try {
    stat = fs.fstatSync(fd);
  } catch {
    return undefined;
  }
  // npm's output adds a line end to the banner's own
  if (!stat.isFile() || stat.size !== Buffer.byteLength(`${banner}\n`)) return undefined;
  fs.ftruncateSync(fd, 0);
  let position = 0;
  return (text) => {
    const bytes = Buffer.from(text);
    // positional writes: the descriptor's own offset still stands past the banner npm wrote
    fs.writeSync(fd, bytes, 0, bytes.length, position);
    position += bytes.length;
  };
}

/** Sends process.stdout over npm's banner when it is a file that holds only the banner. */
export function claimStdoutFromNpmBanner(args: readonly string[]): void {
  const write = writerOverBanner(1, npmBanner(process.env, args));
  if (!write) return;
  const stdout = process.stdout;
  stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    write(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
    const done = rest.find((item): item is () => void => typeof item === "function");
    done?.();
    return true;
  }) as typeof stdout.write;
}
