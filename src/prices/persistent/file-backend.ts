/**
 * The runner's persistent cache (`--cache DIR`): one file per partition, `<hash>.jsonl`, a header line naming version,
 * environment and subject, then one entry per line, oldest use first. Written whole to a temporary file and renamed,
 * so a run that stops half-way leaves the previous file. Node only.
 */
import { mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type CacheBackend, DEFAULT_PERSISTENT_MAX_BYTES } from "./persistent-cache";
import type { Partition } from "./partition";

interface Header {
  version: string;
  baseUrl: string;
  subject: string;
}

function readHeader(line: string | undefined): Header | undefined {
  try {
    const parsed: unknown = JSON.parse(line ?? "");
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { version, baseUrl, subject } = parsed as Record<string, unknown>;
    return typeof version === "string" && typeof baseUrl === "string" && typeof subject === "string" ? { version, baseUrl, subject } : undefined;
  } catch {
    return undefined;
  }
}

export interface FileBackendOptions {
  /** The partition's bound in bytes (default 50 MB): a file over it is refused unread (the cache never writes one). */
  readonly maxBytes?: number;
  /** Where the one line saying a file was refused goes (the runner's stderr). */
  readonly log?: (message: string) => void;
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export class FileCacheBackend implements CacheBackend {
  constructor(
    private readonly dir: string,
    private readonly options: FileBackendOptions = {},
  ) {}

  private file(partition: Partition): string {
    return join(this.dir, `${partition.id}.jsonl`);
  }

  async load(partition: Partition): Promise<readonly string[]> {
    await this.sweep(partition.version);
    const path = this.file(partition);
    const bound = this.options.maxBytes ?? DEFAULT_PERSISTENT_MAX_BYTES;
    // Bounded on read as on write: a file over the bound (written by hand, or by another program) is not read at all.
    const size = await stat(path).then((found) => found.size, () => 0);
    // The header line and a newline per entry come on top of the bound the entries keep.
    if (size > bound + 64 * 1024) {
      this.options.log?.(`workbook: persistent cache ${path} is ${megabytes(size)}, over its bound of ${megabytes(bound)}: not read (its values are asked again, and the file is replaced)`);
      return [];
    }
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch {
      return [];
    }
    const lines = text.split("\n");
    const header = readHeader(lines.shift());
    // Another version's entries are never read; a file whose header is not ours is left alone.
    if (header?.version !== partition.version || header.baseUrl !== partition.baseUrl || header.subject !== partition.subject) return [];
    // The last line is the empty one after the final newline; any other empty or damaged line the cache leaves out.
    if (lines.at(-1) === "") lines.pop();
    return lines;
  }

  async save(partition: Partition, lines: readonly string[]): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const header: Header = { version: partition.version, baseUrl: partition.baseUrl, subject: partition.subject };
    const target = this.file(partition);
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(temporary, [JSON.stringify(header), ...lines].join("\n") + "\n", { mode: 0o600 });
    await rename(temporary, target);
  }

  async clear(partition: Partition): Promise<void> {
    await rm(this.file(partition), { force: true });
  }

  /** A new add-in version empties the cache: every partition file written by another version goes. */
  private async sweep(version: string): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    for (const name of names.filter((entry) => entry.endsWith(".jsonl"))) {
      const path = join(this.dir, name);
      const header = readHeader(await firstLine(path));
      if (header && header.version !== version) await rm(path, { force: true });
    }
  }
}

/** The header line alone (a partition file may hold 50 MB). */
async function firstLine(path: string): Promise<string> {
  const file = await open(path, "r").catch(() => undefined);
  if (!file) return "";
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString("utf8");
    const end = text.indexOf("\n");
    return end < 0 ? text : text.slice(0, end);
  } finally {
    await file.close();
  }
}
