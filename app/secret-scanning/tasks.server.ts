// Secret scanning's background job, by name, for the worker (app/jobs, started in app/entry.server.tsx).
import type { TaskList } from "graphile-worker";
import { LEAK_MAIL_TASK, sendLeakMail } from "./leak-mail.server";

export const secretScanningTasks: TaskList = { [LEAK_MAIL_TASK]: sendLeakMail };
