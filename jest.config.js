/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  transform: { "^.+\\.tsx?$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
  testMatch: ["<rootDir>/test/**/*.test.ts"],
  moduleNameMapper: { "^office-addin-manifest$": "<rootDir>/node_modules/office-addin-manifest" },
  // Browser and end-to-end suites start a sandbox and Chromium; bounds here keep a hang from stalling CI.
  testTimeout: 60_000,
  maxWorkers: 2,
};
