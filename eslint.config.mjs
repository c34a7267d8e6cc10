// ESLint with typescript-eslint's strict type-checked rules over the product (src/); `npm test` runs it (test/lint.test.ts).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", "test-output/", "coverage/"] },
  {
    files: ["src/**/*.ts"],
    extends: [js.configs.recommended, ...tseslint.configs.strictTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A number in a message is the common case and prints as written; objects, nullish and unknown still need a String().
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      // `() => void work()`-style arrow shorthands are the house's handlers; a void value used anywhere else is still an error.
      "@typescript-eslint/no-confusing-void-expression": ["error", { ignoreArrowShorthand: true }],
    },
  },
);
