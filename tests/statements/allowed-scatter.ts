// Statements that may reach every shard, each with why. Kept short: a user's or an integrator's
// request never belongs here, only background work over every organization and the platform's
// own cross-tenant views (docs/scale-out.md).
export interface AllowedScatter {
  statement: RegExp;
  reason: string;
}

export const ALLOWED_SCATTER: AllowedScatter[] = [];
