/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  transform: { "^.+\\.tsx?$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
  testMatch: ["<rootDir>/test/**/*.test.ts"],
  moduleNameMapper: { "^office-addin-manifest$": "<rootDir>/node_modules/office-addin-manifest" },
  // A bound against a hang, not a speed target: tests wait for events, and on two cores shared with
  // another CPU-heavy job a suite that starts a sandbox runs several times slower (docs/testing.md).
  testTimeout: 180_000,
  maxWorkers: 2,
  // A worker that loaded an ES module through --experimental-vm-modules (oidc-provider, in every suite that starts the
  // sandbox) takes longer than jest's 500 ms to exit on a busy machine, with no handle left open; a leaked handle still
  // shows ("failed to exit gracefully"), only after 5 s.
  workerGracefulExitTimeout: 5_000,
};
