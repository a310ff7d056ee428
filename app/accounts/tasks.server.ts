import type { TaskList } from "graphile-worker";
import { sendPasswordResetMail } from "./password-reset-mail.server";
import { SEND_PASSWORD_RESET_TASK } from "./password-reset.server";
import { SEND_SIGN_UP_ATTEMPT_TASK, sendSignUpAttemptMail, sendVerificationMail } from "./sign-up-mail.server";
import { SEND_VERIFICATION_TASK } from "./email-verification.server";
import { SEND_EMAIL_CHANGE_TASK, SEND_EMAIL_CHANGED_NOTICE_TASK } from "./email-change.server";
import { sendEmailChangedNotice, sendEmailChangeMail } from "./email-change-mail.server";

/** The account layer's background jobs. */
export const accountTasks: TaskList = {
  [SEND_PASSWORD_RESET_TASK]: sendPasswordResetMail,
  [SEND_VERIFICATION_TASK]: sendVerificationMail,
  [SEND_SIGN_UP_ATTEMPT_TASK]: sendSignUpAttemptMail,
  [SEND_EMAIL_CHANGE_TASK]: sendEmailChangeMail,
  [SEND_EMAIL_CHANGED_NOTICE_TASK]: sendEmailChangedNotice,
};
