import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Two rules of the source tree, read from the code itself (the TypeScript parser, not text search,
// so comments and types do not count): the API layer (src/api) stands alone, and every address of
// the UI API is built by src/api/paths.ts.

const src = path.dirname(new URL(import.meta.url).pathname);
const apiDir = path.join(src, "api");
const pathsModule = path.join(apiDir, "paths.ts");
const needle = "/ui/api";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

function parse(file: string, text = readFileSync(file, "utf8")): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

function line(source: ts.SourceFile, node: ts.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

/** Every module a file imports or re-exports, statically or with import(). */
function importsOf(source: ts.SourceFile): { specifier: string; line: number }[] {
  const found: { specifier: string; line: number }[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      found.push({ specifier: node.moduleSpecifier.text, line: line(source, node) });
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0]))
      found.push({ specifier: node.arguments[0].text, line: line(source, node) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The imports of a file in src/api that reach outside src/api (packages are fine). */
function uiImports(file: string, source: ts.SourceFile): string[] {
  return importsOf(source)
    .filter(({ specifier }) => specifier.startsWith("."))
    .filter(({ specifier }) => !path.resolve(path.dirname(file), specifier).startsWith(apiDir + path.sep))
    .map(({ specifier, line }) => `${path.relative(src, file)}:${line} imports ${specifier}`);
}

/** Strings and templates in code holding the UI API's prefix; types (the OpenAPI document's path keys) are not addresses and are skipped. */
function apiLiterals(file: string, source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isTypeNode(node)) return;
    if ((ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) && node.text.includes(needle)) found.push(`${path.relative(src, file)}:${line(source, node)} "${node.text}"`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the source tree", () => {
  const files = sourceFiles(src);

  it("is found", () => {
    expect(files).toContain(pathsModule);
    expect(files.length).toBeGreaterThan(40);
  });

  it("keeps the API layer free of UI code: src/api imports only src/api and packages", () => {
    const offending = files.filter((f) => f.startsWith(apiDir + path.sep)).flatMap((f) => uiImports(f, parse(f)));
    expect(offending).toEqual([]);
  });

  it("builds every /ui/api address in src/api/paths.ts", () => {
    const exempt = new Set([pathsModule, path.join(apiDir, "paths.test.ts"), new URL(import.meta.url).pathname]);
    const offending = files.filter((f) => !exempt.has(f)).flatMap((f) => apiLiterals(f, parse(f)));
    expect(offending).toEqual([]);
  });

  it("would catch each kind of breach", () => {
    const api = path.join(apiDir, "example.ts");
    const breach = parse(
      api,
      [
        'import { x } from "../lib/settings";',
        'export * from "../components/Field";',
        'import { y } from "./client";',
        'import { useQuery } from "@tanstack/react-query";',
        'const lazy = () => import("../pages/SettingsPage");',
        'const a = fetch("/ui/api/queue");',
        "const b = `/ui/api/jobs/${id}/retry`;",
        "// a comment about /ui/api/queue is fine",
        'type Body = JsonBody<"/ui/api/queue/url">;',
      ].join("\n"),
    );
    expect(uiImports(api, breach)).toEqual([
      "api/example.ts:1 imports ../lib/settings",
      "api/example.ts:2 imports ../components/Field",
      "api/example.ts:5 imports ../pages/SettingsPage",
    ]);
    expect(apiLiterals(api, breach)).toEqual(['api/example.ts:6 "/ui/api/queue"', 'api/example.ts:7 "/ui/api/jobs/"']);
    const page = path.join(src, "pages", "Example.tsx");
    expect(apiLiterals(page, parse(page, 'export const A = () => <a href="/ui/api/logs/download">Download</a>;'))).toEqual(['pages/Example.tsx:1 "/ui/api/logs/download"']);
  });
});
