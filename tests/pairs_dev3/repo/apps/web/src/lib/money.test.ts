import { describe, expect, it } from "vitest";
import { formatMoney } from "./money";

describe("formatMoney", () => {
  it("formats cents as euros", () => {
    expect(formatMoney(123456)).toBe("€1,234.56");
  });
});
