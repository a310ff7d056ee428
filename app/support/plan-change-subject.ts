// A support plan change's record subject, "from→to" (the plan ids): written by the console's plan
// change (support-plan.server.ts), read back by the support records list.

export function planChangeSubject(from: string, to: string): string {
  return `${from}→${to}`;
}

export function parsePlanChangeSubject(subject: string): { from: string; to: string } {
  const [from = "", to = ""] = subject.split("→");
  return { from, to };
}
