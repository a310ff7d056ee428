// Editing one's own name and address in the browser: the name at once; the address through a link
// mailed to the new address, opened while signed in, the old address told afterwards; a taken
// address answered like a free one (its mail says so); a used link refused with a clear page.
import { expect, test } from "./fixtures";
import { demo, signUp, submitSignIn, uniqueEmail } from "./helpers";
import { emailChangeLink, waitForMail, waitForMails } from "./mail";

test("change one's name and e-mail address, confirmed by the mailed link", async ({ page, browser }) => {
  test.slow();
  const user = await signUp(page, { name: "Petra Profile" });
  await page.goto("/dashboard/account");

  await page.getByLabel("Name", { exact: true }).fill("Petra Renamed");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Your name was saved.")).toBeVisible();
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome, Petra Renamed");
  await page.goto("/dashboard/account");

  // A wrong password: a message, nothing mailed.
  const newEmail = uniqueEmail("moved");
  await page.getByLabel("New e-mail address").fill(newEmail);
  await page.getByLabel("Your password").fill("not-the-password");
  await page.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(page.getByText("The current password is incorrect.")).toBeVisible();

  await page.getByLabel("New e-mail address").fill(newEmail);
  await page.getByLabel("Your password").fill(user.password);
  await page.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(page.getByText(`If ${newEmail} can take this account, a confirmation link is on its way there.`)).toBeVisible();
  await expect(page.getByTestId("account-email")).toHaveText(user.email);

  const mail = await waitForMail(newEmail);
  expect(mail.subject).toBe("Confirm your new e-mail address for KeyLedger");
  const link = emailChangeLink(mail);
  await page.goto(link.pathname + link.search);
  await expect(page.getByTestId("confirm-email")).toContainText(`from ${user.email} to ${newEmail}`);
  await page.getByRole("button", { name: "Change my address" }).click();
  await expect(page).toHaveURL(/\/dashboard\/account\?notice=emailChanged$/);
  await expect(page.getByText(`Your address is now ${newEmail}.`)).toBeVisible();
  await expect(page.getByTestId("account-email")).toHaveText(newEmail);

  // The old address is told; the link worked once.
  const notices = await waitForMails(user.email, { count: 2 });
  expect(notices.map((m) => m.subject)).toContain("Your KeyLedger address was changed");
  const reused = await page.goto(link.pathname + link.search);
  expect(reused?.status()).toBe(400);
  await expect(page.getByTestId("confirm-email")).toContainText("This link does not work anymore");
  await expect(page.getByRole("button", { name: "Change my address" })).toHaveCount(0);

  // The new address signs in; the old one does not.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await submitSignIn(otherPage, user.email, user.password);
  await expect(otherPage).toHaveURL(/\/login$/);
  await submitSignIn(otherPage, newEmail, user.password);
  await expect(otherPage).toHaveURL(/\/dashboard$/);
  await other.close();
});

test("an address that already has an account gets the same answer, and its mail says so", async ({ page }) => {
  const user = await signUp(page, { name: "Tom Taken" });
  await page.goto("/dashboard/account");
  await page.getByLabel("New e-mail address").fill(demo.globexOwner);
  await page.getByLabel("Your password").fill(user.password);
  await page.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(page.getByText(`If ${demo.globexOwner} can take this account, a confirmation link is on its way there.`)).toBeVisible();
  const [note] = await waitForMails(demo.globexOwner, { matching: (m) => m.subject === "This address already has a KeyLedger account" });
  expect(note?.text).not.toContain("token=");
  await page.reload();
  await expect(page.getByTestId("account-email")).toHaveText(user.email);
});

test("a confirmation link opened by another account is refused and changes nothing", async ({ page, browser }) => {
  const user = await signUp(page, { name: "Ann Asker" });
  await page.goto("/dashboard/account");
  const newEmail = uniqueEmail("asked");
  await page.getByLabel("New e-mail address").fill(newEmail);
  await page.getByLabel("Your password").fill(user.password);
  await page.getByRole("button", { name: "Send confirmation link" }).click();
  const link = emailChangeLink(await waitForMail(newEmail));

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signUp(otherPage, { name: "Otto Other" });
  const answer = await otherPage.goto(link.pathname + link.search);
  expect(answer?.status()).toBe(403);
  await expect(otherPage.getByTestId("confirm-email")).toContainText("This link is for another account.");
  await expect(otherPage.getByRole("button", { name: "Change my address" })).toHaveCount(0);
  await other.close();
  // Still good for its own account.
  await page.goto(link.pathname + link.search);
  await page.getByRole("button", { name: "Change my address" }).click();
  await expect(page.getByTestId("account-email")).toHaveText(newEmail);
});
