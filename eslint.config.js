import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import prettierConfig from "eslint-config-prettier";
import regexpPlugin from "eslint-plugin-regexp";
import redos from "eslint-plugin-redos";

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "node_modules/**",
      "data/**",
      "seed/national/**",
      "tests/artifacts/**",
      "public/**",
      ".cache/**",
      "**/build-*/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "off",
    },
  },
  // Every regular expression in app/ and server/ runs on request data or is near it: checked for
  // mistakes (eslint-plugin-regexp) and for super-linear backtracking (recheck, through
  // eslint-plugin-redos), so no input can stall the server in a regex (issue 18, docs/decisions/183).
  {
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts", "server.ts"],
    plugins: { regexp: regexpPlugin, redos },
    rules: {
      ...regexpPlugin.configs["flat/recommended"].rules,
      "regexp/no-super-linear-backtracking": "error",
      "regexp/no-super-linear-move": "error",
      // A generous time limit: on a slow machine one check of ssrf.ts's URL_START ran past 10 s in CI
      // (2026-11-28) and the timeout counts as an error (ignoreErrors: false), as it should.
      "redos/no-vulnerable": ["error", { ignoreErrors: false, timeout: 60000 }],
      // Style only, no bearing on correctness or speed: not worth churning every module for.
      "regexp/no-unused-capturing-group": "off",
      "regexp/prefer-d": "off",
      "regexp/prefer-w": "off",
      "regexp/use-ignore-case": "off",
      "regexp/no-useless-flag": "off",
    },
  },
  prettierConfig,
);
