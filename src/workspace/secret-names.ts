// The secret identities' walk (security/secret-identities.ts) done by find(1) in a process of its
// own: it reads every folder of a workdir as the walk does (hidden ones too, .git and node_modules
// not, no symlinked folder followed) and prints only the entries whose path may be secret by name —
// a superset, each judged by secretReason here. On the Linux tree that is ~0.1 s of another core's
// time instead of ~0.45 s of this thread's, beside a new server's first search.
import { childEnv } from '../exec/env.ts';
import type { Executor } from '../exec/executor.ts';
import type { Runtime } from '../runtime/types.ts';
import { secretNeedles } from '../security/secret-files.ts';
import { SECRET_WALK_SKIPPED_DIRS, type SecretNameLister } from '../security/secret-identities.ts';

const FIND_TIMEOUT_MS = 60_000;
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/** find's expression: the walk's pruning, then any non-folder whose path holds a needle (ASCII case folded) or a byte past ASCII. */
export function secretNameExpression(): string[] {
  const { names, folders } = secretNeedles();
  const pruned = [...SECRET_WALK_SKIPPED_DIRS].flatMap((n, i) => [...(i ? ['-o'] : []), '-name', n]);
  const any = [
    ...names.flatMap((n) => ['-iname', `*${n}*`, '-o']),
    ...folders.flatMap((d) => ['-ipath', `*/${d}/*`, '-o']),
    // toLowerCase maps a few non-ASCII letters to ASCII ones (the Kelvin sign to k): such paths are all listed.
    '-path',
    '*[^ -~]*',
  ];
  return ['(', '-type', 'd', '(', ...pruned, ')', ')', '-prune', '-o', '!', '-type', 'd', '(', ...any, ')', '-print0'];
}

export function createSecretNameLister(options: { runtime: Runtime; exec: Executor }): SecretNameLister {
  return async (dir) => {
    const find = options.runtime.which('find');
    if (!find) return undefined;
    const r = await options.exec
      .run({ command: find, args: ['.', ...secretNameExpression()], cwd: dir, env: childEnv(options.runtime, { LC_ALL: 'C' }), timeoutMs: FIND_TIMEOUT_MS, maxOutputBytes: MAX_OUTPUT_BYTES, leavesNothing: true })
      .catch(() => undefined);
    // An unreadable folder (find says so and exits 1) or any failure: the walk in this thread decides.
    if (r?.exitCode !== 0 || r.truncated || r.timedOut || r.cancelled) return undefined;
    const out: string[] = [];
    for (const entry of r.stdout.split('\0')) if (entry.startsWith('./')) out.push(entry.slice(2));
    return out;
  };
}
