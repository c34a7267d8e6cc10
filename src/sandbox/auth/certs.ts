/**
 * The sandbox's HTTPS material: a long-lived local CA and a `localhost` certificate it signs,
 * created on first use in `<repo>/.certs` (gitignored), reused while valid, never installed in any
 * system trust store. Clients trust `ca.crt` explicitly (curl `--cacert`, undici `connect.ca`).
 */
import { X509Certificate, constants, createPrivateKey, generateKeyPair, privateEncrypt, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { MS_PER_DAY } from "../../api/dates";
import type forgeModule from "node-forge";

type Forge = typeof forgeModule;
let forgeLoaded: Forge | undefined;

/** node-forge is large and only needed to create certificates: loaded on first use, not at every start. */
async function loadForge(): Promise<Forge> {
  forgeLoaded ??= (await import("node-forge")).default;
  return forgeLoaded;
}
import { readTextIfPresent, withDirectoryLock, writeFileAtomic } from "./files";

const generateRsa = promisify(generateKeyPair);

const CA_VALIDITY_DAYS = 10 * 365;
/** Browsers reject server certificates valid for longer than 398 days. */
const LEAF_VALIDITY_DAYS = 365;
/** Renew a little before expiry, so that a long-running sandbox never serves an expired certificate. */
const CA_RENEW_BEFORE_MS = 30 * MS_PER_DAY;
const LEAF_RENEW_BEFORE_MS = 7 * MS_PER_DAY;

export const CERTIFICATE_FILES = {
  caCert: "ca.crt",
  caKey: "ca.key",
  cert: "localhost.crt",
  key: "localhost.key",
} as const;

export interface Certificates {
  /** The folder holding the files below. */
  readonly dir: string;
  /** Absolute path of the CA certificate: what clients trust (`CA ...` line of `npm run sandbox`). */
  readonly caPath: string;
  readonly certPath: string;
  readonly keyPath: string;
  /** PEM texts: the CA certificate, the localhost certificate and its private key. */
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

/** The repository root: the nearest folder above this file that holds `package.json`. */
export function repositoryRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

export function defaultCertificatesDir(): string {
  return join(repositoryRoot(), ".certs");
}

/**
 * Returns the CA and localhost certificate in `dir`, creating or renewing them when missing,
 * unreadable, inconsistent or close to expiry. A valid CA is kept when only the leaf is renewed,
 * so a CA the user already trusts stays trusted. Safe when several processes call it at once.
 */
export async function ensureCertificates(dir: string = defaultCertificatesDir()): Promise<Certificates> {
  const absolute = resolve(dir);
  const found = await loadCertificates(absolute);
  if (found.certificates) return found.certificates;
  return withDirectoryLock(absolute, "certificates", async () => {
    const again = await loadCertificates(absolute);
    if (again.certificates) return again.certificates;
    const ca = again.ca ?? (await createCa(absolute));
    return createLeaf(absolute, ca);
  });
}

interface CaMaterial {
  certPem: string;
  keyPem: string;
}

interface Loaded {
  certificates?: Certificates;
  /** Set when the CA is still good even though the leaf is not. */
  ca?: CaMaterial;
}

function paths(dir: string): Record<keyof typeof CERTIFICATE_FILES, string> {
  return {
    caCert: join(dir, CERTIFICATE_FILES.caCert),
    caKey: join(dir, CERTIFICATE_FILES.caKey),
    cert: join(dir, CERTIFICATE_FILES.cert),
    key: join(dir, CERTIFICATE_FILES.key),
  };
}

async function loadCertificates(dir: string): Promise<Loaded> {
  const files = paths(dir);
  const [caCertPem, caKeyPem, certPem, keyPem] = await Promise.all([
    readTextIfPresent(files.caCert),
    readTextIfPresent(files.caKey),
    readTextIfPresent(files.cert),
    readTextIfPresent(files.key),
  ]);
  if (caCertPem === undefined || caKeyPem === undefined) return {};
  const ca = checkedCa(caCertPem, caKeyPem);
  if (!ca) return {};
  const caMaterial = { certPem: caCertPem, keyPem: caKeyPem };
  if (certPem === undefined || keyPem === undefined || !leafIsValid(certPem, keyPem, ca)) return { ca: caMaterial };
  return {
    ca: caMaterial,
    certificates: {
      dir,
      caPath: files.caCert,
      certPath: files.cert,
      keyPath: files.key,
      ca: caCertPem,
      cert: certPem,
      key: keyPem,
    },
  };
}

function checkedCa(certPem: string, keyPem: string): X509Certificate | undefined {
  try {
    const ca = new X509Certificate(certPem);
    const now = Date.now();
    const usable =
      ca.ca &&
      ca.checkPrivateKey(createPrivateKey(keyPem)) &&
      ca.verify(ca.publicKey) &&
      Date.parse(ca.validFrom) <= now &&
      Date.parse(ca.validTo) - now > CA_RENEW_BEFORE_MS;
    return usable ? ca : undefined;
  } catch {
    return undefined;
  }
}

function leafIsValid(certPem: string, keyPem: string, ca: X509Certificate): boolean {
  try {
    const leaf = new X509Certificate(certPem);
    const now = Date.now();
    return (
      !leaf.ca &&
      leaf.checkIssued(ca) &&
      leaf.verify(ca.publicKey) &&
      leaf.checkPrivateKey(createPrivateKey(keyPem)) &&
      leaf.checkHost("localhost") !== undefined &&
      leaf.checkIP("127.0.0.1") !== undefined &&
      leaf.checkIP("::1") !== undefined &&
      Date.parse(leaf.validFrom) <= now &&
      Date.parse(leaf.validTo) - now > LEAF_RENEW_BEFORE_MS
    );
  } catch {
    return false;
  }
}

interface RsaKey {
  privatePem: string;
  /** The public key for forge, which builds the certificate. */
  publicKey: forgeModule.pki.rsa.PublicKey;
}

/** RSA keys come from node:crypto (native and fast); forge only reads the public half. */
async function newRsaKey(forge: Forge): Promise<RsaKey> {
  const { privateKey, publicKey } = await generateRsa("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  return { privatePem: privateKey, publicKey: forge.pki.publicKeyFromPem(publicKey) };
}

/** DER prefix of a PKCS#1 v1.5 DigestInfo for SHA-256 (RFC 8017 section 9.2). */
const SHA256_DIGEST_INFO = Buffer.from("3031300d060960864801650304020105000420", "hex");

/**
 * Signs a certificate with node:crypto rather than forge's JavaScript RSA, which is ten times slower
 * under jest's VM: forge hands over the digest of the to-be-signed certificate; this returns the
 * PKCS#1 v1.5 signature of it as a binary string, as forge's own key would.
 */
function sign(forge: Forge, cert: forgeModule.pki.Certificate, privatePem: string): void {
  const key = createPrivateKey(privatePem);
  const signer = {
    sign: (md: forgeModule.md.MessageDigest) =>
      privateEncrypt(
        { key, padding: constants.RSA_PKCS1_PADDING },
        Buffer.concat([SHA256_DIGEST_INFO, Buffer.from(md.digest().getBytes(), "binary")]),
      ).toString("binary"),
  };
  cert.sign(signer as unknown as forgeModule.pki.rsa.PrivateKey, forge.md.sha256.create());
}

/** A positive 128-bit serial whose first byte keeps the DER integer minimal. */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x3f) | 0x40;
  return bytes.toString("hex");
}

function validity(cert: forgeModule.pki.Certificate, days: number): void {
  const notBefore = new Date(Date.now() - 60 * 60 * 1000);
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = new Date(notBefore.getTime() + days * MS_PER_DAY);
}

async function createCa(dir: string): Promise<CaMaterial> {
  const forge = await loadForge();
  const key = await newRsaKey(forge);
  const cert = forge.pki.createCertificate();
  cert.publicKey = key.publicKey;
  cert.serialNumber = serialNumber();
  validity(cert, CA_VALIDITY_DAYS);
  const subject = [
    { name: "commonName", value: "Physical Prices Sandbox Local CA" },
    { name: "organizationName", value: "Physical Prices for Excel (local sandbox)" },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, pathLenConstraint: 0, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  sign(forge, cert, key.privatePem);
  const certPem = forge.pki.certificateToPem(cert);
  const files = paths(dir);
  await writeFileAtomic(files.caKey, key.privatePem, 0o600);
  await writeFileAtomic(files.caCert, certPem);
  return { certPem, keyPem: key.privatePem };
}

async function createLeaf(dir: string, ca: CaMaterial): Promise<Certificates> {
  const forge = await loadForge();
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const key = await newRsaKey(forge);
  const cert = forge.pki.createCertificate();
  cert.publicKey = key.publicKey;
  cert.serialNumber = serialNumber();
  validity(cert, LEAF_VALIDITY_DAYS);
  cert.setSubject([{ name: "commonName", value: "localhost" }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    {
      name: "subjectAltName",
      altNames: [
        { type: 2, value: "localhost" },
        { type: 7, ip: "127.0.0.1" },
        { type: 7, ip: "::1" },
      ],
    },
    { name: "subjectKeyIdentifier" },
    { name: "authorityKeyIdentifier", keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  sign(forge, cert, ca.keyPem);
  const certPem = forge.pki.certificateToPem(cert);
  const files = paths(dir);
  await writeFileAtomic(files.key, key.privatePem, 0o600);
  await writeFileAtomic(files.cert, certPem);
  return {
    dir,
    caPath: files.caCert,
    certPath: files.cert,
    keyPath: files.key,
    ca: ca.certPem,
    cert: certPem,
    key: key.privatePem,
  };
}
