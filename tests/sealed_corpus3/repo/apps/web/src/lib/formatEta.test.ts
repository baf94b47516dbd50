import { describe, expect, it } from "vitest";
import { formatEta } from "./formatEta";

describe("formatEta", () => {
  it("shows Due under a minute", () => expect(formatEta(0.4)).toBe("Due"));
  it("shows minutes", () => expect(formatEta(12.2)).toBe("12 min"));
  it("shows hours", () => expect(formatEta(75)).toBe("1:15"));
});
