// Types of what eslint.config.js exports besides the config: the layer table that
// tests/architecture/layers.test.ts checks.
export declare const LAYERS: Record<string, { files: string[]; specifiers: string[] }>;
export declare const MAY_IMPORT: Record<string, string[]>;
declare const config: unknown[];
export default config;
