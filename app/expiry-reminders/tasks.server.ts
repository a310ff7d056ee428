// The expiry reminders' background jobs, by name, for the worker (app/jobs), and the planner's cron.
import type { TaskList } from "graphile-worker";
import { planExpiryReminders, PLAN_REMINDERS_TASK, REMINDER_CRON, SEND_REMINDER_TASK } from "./planner.server";
import { sendReminderMail } from "./reminder-mail.server";

export const expiryReminderCron = REMINDER_CRON;

export const expiryReminderTasks: TaskList = {
  [PLAN_REMINDERS_TASK]: async (_payload, helpers) => {
    const { mails } = await planExpiryReminders();
    if (mails > 0) helpers.logger.info(`expiry reminders planned: ${mails} mails queued`);
  },
  [SEND_REMINDER_TASK]: sendReminderMail,
};
