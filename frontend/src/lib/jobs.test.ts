import { describe, expect, it } from "vitest";
import { addOptions, addProblem, categoryLabel, pageCount, pageRange, priorityLabel, uploadForm, uploadProgressText, type AddFields } from "./jobs";

const nzb = (name: string) => new File(['<?xml version="1.0"?><nzb/>'], name, { type: "application/x-nzb" });
const fields: AddFields = { category: "tv", priority: 1, name: "My.Show", password: "secret" };

describe("uploadForm", () => {
  it("sends every file under the one field name `files`, with the shared fields", () => {
    const form = uploadForm([nzb("a.nzb"), nzb("b.nzb")], { ...fields, name: "" });
    expect(form.getAll("files").map((f) => (f as File).name)).toEqual(["a.nzb", "b.nzb"]);
    expect(form.get("category")).toBe("tv");
    expect(form.get("priority")).toBe("1");
    expect(form.get("password")).toBe("secret");
    expect(form.has("name")).toBe(false);
  });

  it("sends the name with exactly one file, never with several (the server refuses that)", () => {
    expect(uploadForm([nzb("a.nzb")], fields).get("name")).toBe("My.Show");
    expect(uploadForm([nzb("a.nzb"), nzb("b.nzb")], fields).has("name")).toBe(false);
  });

  it("leaves out what was not filled in, so the server's defaults apply", () => {
    const form = uploadForm([nzb("a.nzb")], { category: "", priority: 0, name: "  ", password: "" });
    expect([...form.keys()].sort()).toEqual(["files", "priority"]);
    expect(form.get("priority")).toBe("0");
  });
});

describe("addOptions", () => {
  it("trims the name and keeps it for one item", () => {
    expect(addOptions({ ...fields, name: " X " }, 1)).toEqual({ category: "tv", priority: 1, name: "X", password: "secret" });
    expect(addOptions({ ...fields, name: " X " }, 0).name).toBe("X");
  });
});

describe("addProblem", () => {
  it("asks for files or a URL, one kind at a time, and a web address", () => {
    expect(addProblem(0, "  ")).toMatch(/Choose or drop/);
    expect(addProblem(2, "http://x/a.nzb")).toMatch(/not both/);
    expect(addProblem(0, "ftp://x/a.nzb")).toMatch(/http:\/\/ or https:\/\//);
    expect(addProblem(0, " HTTPS://x/a.nzb ")).toBeNull();
    expect(addProblem(3, "")).toBeNull();
  });
});

describe("uploadProgressText", () => {
  it("says how much went, then that the server checks the NZB", () => {
    expect(uploadProgressText({ sent: 450_000, total: 1_000_000 })).toBe("Uploading 45 % (450 KB of 1.0 MB)");
    expect(uploadProgressText({ sent: 0, total: 0 })).toBe("Uploading 0 % (0 B of 0 B)");
    expect(uploadProgressText({ sent: 1_000_000, total: 1_000_000 })).toBe("Uploaded 1.0 MB: checking the NZB…");
  });
});

describe("paging", () => {
  it("says which entries the page shows", () => {
    expect(pageRange(1, 25, 60)).toBe("1–25 of 60");
    expect(pageRange(3, 25, 60)).toBe("51–60 of 60");
    expect(pageRange(1, 25, 7)).toBe("1–7 of 7");
    expect(pageRange(1, 25, 0)).toBe("0 of 0");
  });

  it("counts at least one page", () => {
    expect(pageCount(25, 0)).toBe(1);
    expect(pageCount(25, 25)).toBe(1);
    expect(pageCount(25, 26)).toBe(2);
  });
});

describe("priorityLabel", () => {
  it("names SABnzbd's numbers", () => {
    expect([-1, 0, 1, 2].map(priorityLabel)).toEqual(["Low", "Normal", "High", "Force"]);
    expect(priorityLabel(7)).toBe("7");
  });
});

describe("categoryLabel", () => {
  it("calls SABnzbd's no-category by the folder it ends in", () => {
    expect(categoryLabel("*")).toBe("default");
    expect(categoryLabel("")).toBe("default");
    expect(categoryLabel("tv")).toBe("tv");
  });
});
