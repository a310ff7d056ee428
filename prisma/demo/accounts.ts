// The demo's people (docs/contract.md, Demo data). The five contract accounts never change; the
// extras give the history more than one hand (and someone who left, was removed or is gone).
export const DEMO_PASSWORD = "correct-horse-battery-staple";

/** The demo platform admin's TOTP secret, published in docs/contract.md: demo data only, never a real account's. */
export const DEMO_STAFF_TOTP_SECRET = "KEYLEDGERSTAFFDEMOTOTPSECRETKEYA";

/** The demo organizations as they are today (their history in acme.ts and globex.ts). */
export const DEMO_ORGANIZATIONS = [
  { slug: "acme", name: "Acme", planId: "enterprise" },
  { slug: "globex", name: "Globex", planId: "team" },
] as const;

/** Accounts and their memberships today. `org`/`role` are where the story leaves them. */
export const DEMO_USERS = [
  { email: "owner@acme.test", name: "Olivia Owner", org: "acme", role: "owner", platformAdmin: false },
  { email: "admin@acme.test", name: "Adam Admin", org: "acme", role: "admin", platformAdmin: false },
  { email: "member@acme.test", name: "Mia Member", org: "acme", role: "member", platformAdmin: false },
  { email: "owner@globex.test", name: "Gustav Globex", org: "globex", role: "owner", platformAdmin: false },
  { email: "staff@platform.test", name: "Sam Staff", org: null, role: null, platformAdmin: true },
] as const;

/** More people in the organizations' history (README, Demo accounts: extras). Frank deletes his
 * account in the story, so only his events remain. */
export const DEMO_EXTRA_USERS = [
  { email: "diego@acme.test", name: "Diego Díaz", org: "acme", role: "admin" },
  { email: "priya@acme.test", name: "Priya Patel", org: "acme", role: "member" },
  { email: "erin@acme.test", name: "Erin Example", org: null, role: null },
  { email: "ivan@acme.test", name: "Ivan Intern", org: null, role: null },
  { email: "frank@acme.test", name: "Frank Former", org: null, role: null },
  { email: "hana@globex.test", name: "Hana Hoshino", org: "globex", role: "admin" },
  { email: "luis@globex.test", name: "Luis Lopez", org: "globex", role: "member" },
  { email: "noor@globex.test", name: "Noor Nasser", org: "globex", role: "member" },
  { email: "tom@globex.test", name: "Tom Temp", org: null, role: null },
] as const;
