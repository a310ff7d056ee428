// Audit streaming's background jobs, by name, for the worker (app/jobs), and the pump that queues
// the deliveries (started and stopped with the worker, app/entry.server.tsx).
import type { TaskList } from "graphile-worker";
import { DELIVER_STREAM_TASK } from "./delivery-jobs.server";
import { deliverStreamTask } from "./deliver-stream.server";
import { FAILING_MAIL_TASK, sendFailingMail } from "./failing-mail.server";

export const auditStreamTasks: TaskList = { [DELIVER_STREAM_TASK]: deliverStreamTask, [FAILING_MAIL_TASK]: sendFailingMail };
export { startPump } from "./pump.server";
