// Types of scripts/verify-audit-export.mjs (plain JavaScript: it runs with nothing but Node), for the tests that hold it to the app.
export declare const MANIFEST_FORMAT: string;
export declare const DIGEST_FORMAT: string;
export declare class UsageError extends Error {}
export interface ExportedEvent {
  id: string;
  createdAt: string;
  action: string;
  actorKind: string;
  actorId: string;
  targetType: string;
  targetId: string;
  details: unknown;
}
export declare function canonicalJson(value: unknown): string;
export declare function canonicalEventText(event: ExportedEvent, organizationId: string): string;
export declare function eventSha256Hex(event: ExportedEvent, organizationId: string): string;
/** A value read from a file as a message shows it: control characters escaped, cut short. */
export declare function shown(value: unknown): string;
export declare function parseArguments(argv: readonly string[]): { exportPath: string; digestsPath: string; keysPath?: string };
export declare function main(argv: readonly string[], out?: (line: string) => void, err?: (line: string) => void): Promise<number>;
