import { describe, expect, it } from "vitest";
import { expiryReminderCron, expiryReminderTasks } from "./tasks.server";

describe("the expiry reminders' jobs", () => {
  it("schedule the planner every 15 minutes, one waiting run at a time, and name only tasks the worker has", () => {
    expect(expiryReminderCron).toHaveLength(1);
    const [planner] = expiryReminderCron;
    // Every hour of every day, at these minutes.
    const fires = (hour: number, date: number) =>
      Array.from({ length: 60 }, (_, min) => min).filter((min) => planner!.match({ min, hour, date, month: 11, dow: 4 }));
    expect(fires(0, 1)).toEqual([0, 15, 30, 45]);
    expect(fires(17, 26)).toEqual([0, 15, 30, 45]);
    expect(planner!.options).toMatchObject({ backfillPeriod: 0, jobKey: planner!.task, jobKeyMode: "replace" });
    expect(Object.keys(expiryReminderTasks)).toContain(planner!.task);
    expect(Object.keys(expiryReminderTasks)).toEqual(["api-key-expiry-reminders", "api-key-expiry-reminder-mail"]);
  });
});
