// Types of scripts/build-stamp.mjs (plain JavaScript: the command launcher runs it without a build).
export declare const BUILD_STAMP: string;
export declare function buildIsCurrent(root: string, checkout: boolean): boolean;
