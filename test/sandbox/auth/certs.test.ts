/** The local CA and localhost certificate: what they contain, reuse, renewal, and creation by many at once. */
import { execFile } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, createServer, type Server } from "node:tls";
import { promisify } from "node:util";
import {
  CERTIFICATE_FILES,
  defaultCertificatesDir,
  ensureCertificates,
  repositoryRoot,
  type Certificates,
} from "../../../src/sandbox/auth";

const run = promisify(execFile);
const DAY_MS = 24 * 60 * 60 * 1000;
const SERVER_AUTH = "1.3.6.1.5.5.7.3.1";

let root: string;
let dirs = 0;
const freshDir = () => join(root, `certs-${(dirs += 1)}`);
/** Two complete sets made once; renewal tests start from copies of them. */
let base: Certificates;
let other: Certificates;

async function copyOfBase(): Promise<string> {
  const dir = freshDir();
  await cp(base.dir, dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "auth-certs-"));
  [base, other] = await Promise.all([ensureCertificates(freshDir()), ensureCertificates(freshDir())]);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("ensureCertificates in an empty folder", () => {
  let dir: string;
  let certificates: Certificates;
  let ca: X509Certificate;
  let leaf: X509Certificate;

  beforeAll(() => {
    certificates = base;
    dir = base.dir;
    ca = new X509Certificate(certificates.ca);
    leaf = new X509Certificate(certificates.cert);
  });

  it("writes the CA and the localhost certificate and key, and returns their paths and PEM texts", async () => {
    expect(certificates.dir).toBe(dir);
    expect(certificates.caPath).toBe(join(dir, CERTIFICATE_FILES.caCert));
    expect(await readFile(certificates.caPath, "utf8")).toBe(certificates.ca);
    expect(await readFile(certificates.certPath, "utf8")).toBe(certificates.cert);
    expect(await readFile(certificates.keyPath, "utf8")).toBe(certificates.key);
    expect(certificates.key).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it("keeps private keys readable by the owner only", async () => {
    for (const file of [CERTIFICATE_FILES.caKey, CERTIFICATE_FILES.key]) {
      expect((await stat(join(dir, file))).mode & 0o077).toBe(0);
    }
  });

  it("makes a CA that signs the leaf, and a leaf that is no CA", () => {
    expect(ca.ca).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.issuer).toBe(ca.subject);
  });

  it("names localhost, 127.0.0.1 and ::1 in the leaf and allows server authentication", () => {
    expect(leaf.subjectAltName).toContain("DNS:localhost");
    expect(leaf.checkHost("localhost")).toBe("localhost");
    expect(leaf.checkIP("127.0.0.1")).toBe("127.0.0.1");
    expect(leaf.checkIP("::1")).toBe("::1");
    expect(leaf.keyUsage).toContain(SERVER_AUTH);
  });

  it("keeps the leaf within the 397 days browsers accept, and the CA for years", () => {
    const leafDays = (Date.parse(leaf.validTo) - Date.parse(leaf.validFrom)) / DAY_MS;
    expect(leafDays).toBeLessThanOrEqual(397);
    expect(Date.parse(leaf.validFrom)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(ca.validTo) - Date.now()).toBeGreaterThan(5 * 365 * DAY_MS);
  });

  it("serves TLS that a client trusting only the CA accepts for localhost", async () => {
    const server: Server = createServer({ key: certificates.key, cert: certificates.cert }, (socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const authorized = await new Promise<boolean>((resolve, reject) => {
        const socket = connect({ host: "127.0.0.1", port, servername: "localhost", ca: certificates.ca }, () => {
          resolve(socket.authorized);
          socket.end();
        });
        socket.on("error", reject);
      });
      expect(authorized).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("reuses valid certificates without rewriting them", async () => {
    const before = await stat(certificates.certPath);
    const again = await ensureCertificates(dir);
    expect(again).toEqual(certificates);
    expect((await stat(certificates.certPath)).mtimeMs).toBe(before.mtimeMs);
  });
});

describe("renewal", () => {
  it("replaces an unreadable leaf and keeps the CA the user may already trust", async () => {
    const first = await ensureCertificates(await copyOfBase());
    await writeFile(first.certPath, "not a certificate");
    const second = await ensureCertificates(first.dir);
    expect(second.ca).toBe(first.ca);
    expect(second.cert).not.toBe(first.cert);
    expect(new X509Certificate(second.cert).verify(new X509Certificate(second.ca).publicKey)).toBe(true);
  });

  it("replaces a leaf signed by another CA", async () => {
    const first = await ensureCertificates(await copyOfBase());
    await writeFile(first.certPath, other.cert);
    await writeFile(first.keyPath, other.key);
    const second = await ensureCertificates(first.dir);
    expect(second.ca).toBe(first.ca);
    expect(new X509Certificate(second.cert).checkIssued(new X509Certificate(first.ca))).toBe(true);
  });

  it("replaces a leaf whose key does not match it", async () => {
    const first = await ensureCertificates(await copyOfBase());
    await writeFile(first.keyPath, other.key);
    const second = await ensureCertificates(first.dir);
    expect(second.cert).not.toBe(first.cert);
  });

  it("makes a new CA and leaf when the CA key is unreadable", async () => {
    const dir = await copyOfBase();
    const first = await ensureCertificates(dir);
    await writeFile(join(dir, CERTIFICATE_FILES.caKey), "garbage");
    const second = await ensureCertificates(dir);
    expect(second.ca).not.toBe(first.ca);
    expect(new X509Certificate(second.cert).checkIssued(new X509Certificate(second.ca))).toBe(true);
  });

  it("breaks a lock left behind by a crashed process", async () => {
    const dir = freshDir();
    await mkdir(join(dir, "certificates.lock"), { recursive: true });
    const old = new Date(Date.now() - 60_000);
    await utimes(join(dir, "certificates.lock"), old, old);
    const certificates = await ensureCertificates(dir);
    expect(new X509Certificate(certificates.cert).checkIssued(new X509Certificate(certificates.ca))).toBe(true);
  });
});

describe("concurrent creation", () => {
  it("gives every concurrent caller in one process the same CA and leaf", async () => {
    const dir = freshDir();
    const results = await Promise.all([1, 2, 3, 4].map(() => ensureCertificates(dir)));
    const onDisk = await ensureCertificates(dir);
    for (const result of results) {
      expect(result.ca).toBe(onDisk.ca);
      expect(result.cert).toBe(onDisk.cert);
    }
  });

  it("gives concurrent processes the same CA and leaf", async () => {
    const dir = freshDir();
    const script = join(__dirname, "fixtures", "ensure-certificates.ts");
    const cli = join(repositoryRoot(), "node_modules", "tsx", "dist", "cli.mjs");
    const fingerprints = (c: Certificates) => ({
      ca: new X509Certificate(c.ca).fingerprint256,
      leaf: new X509Certificate(c.cert).fingerprint256,
    });
    // Two child processes and this one race to create the same folder.
    const [first, second, own] = await Promise.all([
      run(process.execPath, [cli, script, dir], { cwd: repositoryRoot() }),
      run(process.execPath, [cli, script, dir], { cwd: repositoryRoot() }),
      ensureCertificates(dir),
    ]);
    const prints = [first, second].map(({ stdout }) => JSON.parse(stdout.trim()) as { ca: string; leaf: string });
    const expected = fingerprints(await ensureCertificates(dir));
    expect([...prints, fingerprints(own)]).toEqual([expected, expected, expected]);
  });
});

describe("the default folder", () => {
  it("is .certs at the repository root, which git ignores", async () => {
    expect(defaultCertificatesDir()).toBe(join(repositoryRoot(), ".certs"));
    await expect(stat(join(repositoryRoot(), "package.json"))).resolves.toBeDefined();
    const ignored = (await readFile(join(repositoryRoot(), ".gitignore"), "utf8")).split("\n");
    expect(ignored).toContain(".certs/");
  });
});
