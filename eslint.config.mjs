// ESLint with typescript-eslint's strict type-checked rules over the product (src/); `npm test` runs it (test/lint/eslint.test.ts).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * Rules of the strict type-checked set that still have findings, each with its count when it was turned off (issue 30):
 * fix a family, delete its line, and the test holds it from then on. Every other rule of the set is on.
 */
const NOT_YET_FIXED = {
  "@typescript-eslint/no-unnecessary-condition": 47,
  "@typescript-eslint/require-await": 26,
  "@typescript-eslint/no-base-to-string": 20,
  "@typescript-eslint/no-confusing-void-expression": 16,
  "@typescript-eslint/no-redundant-type-constituents": 6,
  "@typescript-eslint/no-dynamic-delete": 6,
  "@typescript-eslint/no-unnecessary-type-parameters": 3,
  "@typescript-eslint/no-misused-spread": 2,
  "@typescript-eslint/no-unsafe-assignment": 2,
  "@typescript-eslint/no-unsafe-return": 1,
  "no-useless-assignment": 1,
  "@typescript-eslint/no-useless-constructor": 1,
  "preserve-caught-error": 1,
  "@typescript-eslint/restrict-plus-operands": 1,
  "@typescript-eslint/no-unsafe-call": 1,
};

/**
 * Findings in files other branches are restructuring now (issue 30): the rule stays off in that file alone until they land,
 * then the file's entry goes.
 */
const NOT_YET_FIXED_IN = {
};

export default tseslint.config(
  {
    ignores: [
      "node_modules/", "dist/", "test-output/", "coverage/",
    ],
  },
  {
    files: ["src/**/*.ts"],
    extends: [js.configs.recommended, ...tseslint.configs.strictTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A number in a message prints as written; objects, nullish and unknown values still need a String() (320 findings without).
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      // Destructuring names the keys a rest object leaves out (the client's options without the add-in's own).
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
      // Passing a caught error on (typed unknown) keeps it as it was thrown.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingUnknown: true }],
      ...Object.fromEntries(Object.keys(NOT_YET_FIXED).map((rule) => [rule, "off"])),
    },
  },
  ...Object.entries(NOT_YET_FIXED_IN).map(([file, rules]) => ({ files: [file], rules: Object.fromEntries(rules.map((rule) => [rule, "off"])) })),
);
