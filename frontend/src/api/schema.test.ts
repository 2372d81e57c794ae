import { readFileSync } from "node:fs";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { describe, expect, it } from "vitest";

const here = path.dirname(new URL(import.meta.url).pathname);

describe("the API types", () => {
  // The server's tests keep openapi.json equal to the document it serves; this keeps schema.d.ts,
  // which types.ts is built on, generated from that very copy (run `npm run gen:api` when it fails).
  it("are generated from the server's OpenAPI document as it is now", async () => {
    const document: unknown = JSON.parse(readFileSync(path.join(here, "openapi.json"), "utf8"));
    const generated = astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
    const committed = readFileSync(path.join(here, "schema.d.ts"), "utf8");
    expect(committed.replace(/^\/\*\*[\s\S]*?\*\/\s*/, "").trim()).toBe(generated.trim());
  });
});
