// npm ci refuses a lock file that lacks any optional platform package of unrs-resolver (jest's resolver), but
// the registry this project is built with serves only some of them, so `npm install` leaves the others out.
// This adds the missing ones as optional, platform-tagged entries (never fetched on other platforms).
// Run it after changing dependencies: `node scripts/complete-lockfile.cjs`.
const fs = require("node:fs");
const path = require("node:path");

const lockPath = path.join(__dirname, "..", "package-lock.json");
const lock = JSON.parse(fs.readFileSync(lockPath, "utf8"));
const parent = lock.packages["node_modules/unrs-resolver"];
if (!parent) process.exit(0);

/** Binding name suffix -> [os, cpu], as each binding's own package.json declares. */
const PLATFORMS = {
  "android-arm-eabi": ["android", "arm"], "android-arm64": ["android", "arm64"], "darwin-arm64": ["darwin", "arm64"],
  "darwin-x64": ["darwin", "x64"], "freebsd-x64": ["freebsd", "x64"], "linux-arm-gnueabihf": ["linux", "arm"],
  "linux-arm-musleabihf": ["linux", "arm"], "linux-arm64-gnu": ["linux", "arm64"], "linux-arm64-musl": ["linux", "arm64"],
  "linux-loong64-gnu": ["linux", "loong64"], "linux-loong64-musl": ["linux", "loong64"], "linux-ppc64-gnu": ["linux", "ppc64"],
  "linux-riscv64-gnu": ["linux", "riscv64"], "linux-riscv64-musl": ["linux", "riscv64"], "linux-s390x-gnu": ["linux", "s390x"],
  "linux-x64-gnu": ["linux", "x64"], "linux-x64-musl": ["linux", "x64"], "openharmony-arm64": ["openharmony", "arm64"],
  "wasm32-wasi": [null, "wasm32"], "win32-arm64-msvc": ["win32", "arm64"], "win32-ia32-msvc": ["win32", "ia32"],
  "win32-x64-msvc": ["win32", "x64"],
};

let added = 0;
for (const [name, version] of Object.entries(parent.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (lock.packages[key]) continue;
  const platform = PLATFORMS[name.replace("@unrs/resolver-binding-", "")];
  if (!platform) throw new Error(`complete-lockfile: no platform known for ${name}; add it to PLATFORMS`);
  const [os, cpu] = platform;
  lock.packages[key] = { version, cpu: [cpu], dev: true, license: "MIT", optional: true, ...(os ? { os: [os] } : {}) };
  added += 1;
}
if (added > 0) {
  const keys = Object.keys(lock.packages).sort((a, b) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0));
  lock.packages = Object.fromEntries(keys.map((k) => [k, lock.packages[k]]));
  fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(`complete-lockfile: ${added} optional platform entries added`);
