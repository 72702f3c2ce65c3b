// The Node versions ctxgate supports, and the one line it prints at start on any other. It warns and
// carries on rather than refusing: most of ctxgate works on Node 20 (only running TypeScript in ctx_run
// needs 22.7), and a refusal would also stop this project's own tests and CI, which run on Node 20.
import type { Runtime } from '../runtime/types.ts';

/** The oldest Node release ctxgate supports (it strips TypeScript types: --experimental-transform-types). */
export const MIN_NODE = [22, 7] as const;

/** The warning for an unsupported Node, or undefined (Deno, or Node 22.7 and later). */
export function unsupportedNodeLine(runtime: Pick<Runtime, 'name' | 'version'>): string | undefined {
  if (runtime.name !== 'node') return undefined;
  const [major = 0, minor = 0] = runtime.version.split('.').map(Number);
  if (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])) return undefined;
  return `ctxgate: Node ${runtime.version} is not supported; use Node ${MIN_NODE.join('.')} or later (22 or 24 LTS). Continuing, but some things will fail.\n`;
}
