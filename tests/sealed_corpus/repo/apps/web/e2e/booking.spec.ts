import { expect, test } from "@playwright/test";

test("a patient can see this week's openings", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Book an appointment" })).toBeVisible();
});
