// Types for deno-binary.mjs (plain JavaScript: scripts/test.mjs runs it on a Node that cannot run .ts).
export const DENO_VERSION: string;
export const NO_DENO: string;
export function findDenoBinary(): string | undefined;
export function denoBinaryOrExit(): string;
