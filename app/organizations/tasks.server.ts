// The organization domain's background jobs, by name, for the worker (app/jobs).
import type { TaskList } from "graphile-worker";
import { sendInvitationMail } from "./invitation-mail.server";
import { SEND_INVITATION_TASK } from "./invitations.server";

export const organizationTasks: TaskList = { [SEND_INVITATION_TASK]: sendInvitationMail };
