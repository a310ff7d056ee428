// The two expiry reminders of a key (docs/decisions/0058-expiry-reminders.md): one 7 days and one
// 1 day before it expires. A kind's window opens `before` the expiry and closes `until` before it:
// the 7-day mail is not sent once the 1-day one is due (a planner that was down for days sends the
// later one alone), and nothing is sent once the key has expired.
const DAY = 24 * 60 * 60 * 1000;

export const REMINDER_KINDS = {
  seven_days: { before: 7 * DAY, until: DAY },
  one_day: { before: DAY, until: 0 },
} as const;

export type ReminderKind = keyof typeof REMINDER_KINDS;

export function isReminderKind(value: string): value is ReminderKind {
  return Object.hasOwn(REMINDER_KINDS, value);
}

/** Whole days left, rounded up, as the mail's subject says them ("in 7 days", "in 1 day"). */
export function daysLeft(expiresAt: Date, now: Date): number {
  return Math.max(1, Math.ceil((expiresAt.getTime() - now.getTime()) / DAY));
}

/** Whether a reminder of `kind` planned for `expiresAt` may still be sent at `now`. */
export function stillInWindow(kind: ReminderKind, expiresAt: Date, now: Date): boolean {
  return expiresAt.getTime() - now.getTime() > REMINDER_KINDS[kind].until;
}
