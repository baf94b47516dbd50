import { describe, expect, it } from "vitest";
import { formatSlotLabel, isBookableDay } from "./slots";

describe("formatSlotLabel", () => {
  it("renders start and end in the clinic's zone", () => {
    const label = formatSlotLabel(
      { providerId: 1, start: "2026-03-02T08:15:00Z", end: "2026-03-02T08:30:00Z" },
      "Europe/Prague",
    );
    expect(label).toBe("09:15 \u2013 09:30");
  });
});

describe("isBookableDay", () => {
  it("refuses days past the window", () => {
    const today = new Date("2026-01-01T00:00:00Z");
    expect(isBookableDay(new Date("2026-06-01T00:00:00Z"), today)).toBe(false);
  });
});
