import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiPaths } from "../api/paths";
import type { UiField } from "../api/types";
import { storedFlag } from "./entities";
import { arrFields, providerFields } from "../testing/entities";


// The descriptors against the server's own OpenAPI document (src/api/openapi.json, kept equal to what
// the server serves): every field is a property of the entity's request and view, of the type its
// kind sends, and nothing the request takes is missing from the form.

interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
}

const document = JSON.parse(readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), "..", "api", "openapi.json"), "utf8")) as {
  paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: Schema }> } } }>;
  components: { schemas: Record<string, Schema> };
};

function resolve(schema: Schema): Schema {
  return schema.$ref ? resolve(document.components.schemas[schema.$ref.replace("#/components/schemas/", "")]!) : schema;
}

function requestSchema(route: string): Schema {
  const body = document.paths[route]?.post?.requestBody?.content["application/json"]?.schema;
  if (!body) throw new Error(`no JSON body for POST ${route}`);
  return resolve(body);
}

function types(schema: Schema): string[] {
  const resolved = resolve(schema);
  return (Array.isArray(resolved.type) ? resolved.type : [resolved.type ?? ""]).filter((t) => t !== "null");
}

const sent: Record<UiField["kind"], string> = { Text: "string", Secret: "string", Choice: "string", Integer: "integer", Number: "number", Boolean: "boolean", List: "array", Bytes: "integer" };

describe.each([
  { entity: "provider", fields: providerFields, route: apiPaths.providers.add, view: "UiProvider" },
  { entity: "Sonarr/Radarr", fields: arrFields, route: apiPaths.arr.add, view: "UiArrInstance" },
])("the $entity descriptors", ({ fields, route, view }) => {
  const request = requestSchema(route).properties ?? {};
  const entity = resolve(document.components.schemas[view]!).properties ?? {};

  it("name every field the request takes, once, and nothing else", () => {
    const names = fields.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(Object.keys(request).filter((k) => k !== "force" && k !== "originalName").sort());
  });

  it("send each field as the type the server reads", () => {
    for (const field of fields) expect({ field: field.name, types: types(request[field.name]!) }).toEqual({ field: field.name, types: [sent[field.kind]] });
    for (const field of fields.filter((f) => f.kind === "List")) expect(types(request[field.name]!.items!)).toEqual(["string"]);
  });

  it("find each field in the view: a secret only as whether it is stored", () => {
    for (const field of fields) {
      if (field.kind === "Secret") {
        expect(entity, field.name).not.toHaveProperty(field.name);
        expect(types(entity[storedFlag(field.name)]!)).toEqual(["boolean"]);
      } else {
        expect(types(entity[field.name]!), field.name).toEqual([sent[field.kind]]);
      }
    }
  });

  it("give a default only of the field's own kind, and choices only to a choice", () => {
    for (const field of fields) {
      if (field.kind === "Choice") expect(field.choices?.length, field.name).toBeGreaterThan(0);
      else expect(field.choices, field.name).toBeNull();
      if (field.default === null) continue;
      if (field.kind === "Boolean") expect(typeof field.default, field.name).toBe("boolean");
      else if (field.kind === "Integer" || field.kind === "Number" || field.kind === "Bytes") expect(typeof field.default, field.name).toBe("number");
      else if (field.kind === "Choice") expect(field.choices, field.name).toContain(field.default);
    }
  });
});
