import { describe, expect, it } from "vitest";
import { credentialsProblem, normalizeSetupCode } from "./validation";

describe("credentialsProblem", () => {
  it("accepts a name and a long enough password typed twice", () => {
    expect(credentialsProblem(" admin ", "correct horse", "correct horse")).toBeNull();
  });

  it("says what is wrong, one thing at a time", () => {
    expect(credentialsProblem("  ", "correct horse", "correct horse")).toBe("Enter a user name.");
    expect(credentialsProblem("a".repeat(65), "correct horse", "correct horse")).toMatch(/at most 64/);
    expect(credentialsProblem("ad\u0007min", "correct horse", "correct horse")).toMatch(/control characters/);
    expect(credentialsProblem("admin", "short", "short")).toMatch(/at least 8/);
    expect(credentialsProblem("admin", "x".repeat(257), "x".repeat(257))).toMatch(/at most 256/);
    expect(credentialsProblem("admin", "correct horse", "correct hose")).toBe("The two passwords differ.");
  });
});

describe("normalizeSetupCode", () => {
  it("restores the logged form from what was typed", () => {
    expect(normalizeSetupCode("abcde fghjk")).toBe("ABCDE-FGHJK");
    expect(normalizeSetupCode(" ABCDE-FGHJK\n")).toBe("ABCDE-FGHJK");
  });

  it("leaves an incomplete code for the server to refuse", () => {
    expect(normalizeSetupCode("abc")).toBe("ABC");
  });
});
