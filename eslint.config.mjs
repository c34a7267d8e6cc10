// ESLint with typescript-eslint's strict type-checked rules over the product (src/); `npm test` runs it (test/lint/eslint.test.ts).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

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
    },
  },
);
