import { describe, expect, it } from "vitest";
import { formatDueDate } from "./dueDate";

const now = new Date(2026, 4, 10, 15, 0);

describe("formatDueDate", () => {
  it("labels today and tomorrow", () => {
    expect(formatDueDate(new Date(2026, 4, 10, 9, 0), now)).toBe("Due today");
    expect(formatDueDate(new Date(2026, 4, 11), now)).toBe("Due tomorrow");
  });
  it("counts overdue days", () => {
    expect(formatDueDate(new Date(2026, 4, 9), now)).toBe("Overdue by 1 day");
    expect(formatDueDate(new Date(2026, 4, 3), now)).toBe("Overdue by 7 days");
  });
});
