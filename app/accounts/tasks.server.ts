import type { TaskList } from "graphile-worker";
import { sendPasswordResetMail } from "./password-reset-mail.server";
import { SEND_PASSWORD_RESET_TASK } from "./password-reset.server";

/** The account layer's background jobs. */
export const accountTasks: TaskList = { [SEND_PASSWORD_RESET_TASK]: sendPasswordResetMail };
