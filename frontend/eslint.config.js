import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  // schema.d.ts is generated from openapi.json (npm run gen:api): its shape is openapi-typescript's, not ours.
  { ignores: ["dist/", "node_modules/", "e2e-results/", "src/api/schema.d.ts"] },
  js.configs.recommended,
  // Type-aware: it is what catches a promise nobody awaits or a value typed `any` flowing into the UI.
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    ...reactHooks.configs.flat["recommended-latest"],
    rules: {
      ...reactHooks.configs.flat["recommended-latest"].rules,
      // A missing dependency is a stale value on screen: never a mere warning.
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    rules: {
      // `_name` is how a deliberately unused binding is spelled (a rest pattern dropping a key).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  // This file itself is plain JavaScript outside tsconfig.json: checked without types.
  { files: ["**/*.js"], ...tseslint.configs.disableTypeChecked },
);
