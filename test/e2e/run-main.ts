/** The runner's `main` run in this process, what it writes to stdout and stderr captured (the e2e tests' one way to run it). */
import { main } from "../../src/runner/workbook-runner";

export interface MainRun {
  code: number;
  printed: string;
  errors: string;
}

export async function runMain(args: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): Promise<MainRun> {
  const out: string[] = [];
  const err: string[] = [];
  const capture = (into: string[]) => (chunk: string | Uint8Array) => {
    into.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return true;
  };
  const stdout = jest.spyOn(process.stdout, "write").mockImplementation(capture(out));
  const stderr = jest.spyOn(process.stderr, "write").mockImplementation(capture(err));
  try {
    const code = await main(args, env);
    return { code, printed: out.join(""), errors: err.join("") };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}
