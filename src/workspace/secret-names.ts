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

/** Characters a POSIX extended regex reads as operators. */
const ERE_SPECIAL = /[\\^$.|?*+()[\]{}]/g;

/**
 * find's expression: the walk's pruning, then any non-folder whose path holds a needle (ASCII case
 * folded) or a byte past ASCII. GNU find (`gnu`) tests one case-folded regex per entry; the portable
 * form a pattern per needle, which on the Linux tree cost find 0.2 s of CPU instead of 0.04 (22
 * case-folded fnmatch calls for each of 83k entries: 0.45–0.57 s of wall time on a loaded machine,
 * which a new server's first search waited for).
 */
export function secretNameExpression(flavour: 'gnu' | 'posix' = 'gnu'): string[] {
  return [...SECRET_WALK_PRUNED, '-o', ...secretNameTest(flavour), '-print0'];
}

/** find's pruning of the secret walk: .git and node_modules are not entered. */
export const SECRET_WALK_PRUNED: readonly string[] = ['(', '-type', 'd', '(', ...[...SECRET_WALK_SKIPPED_DIRS].flatMap((n, i) => [...(i ? ['-o'] : []), '-name', n]), ')', ')', '-prune'];

/** find's test of an entry the secret walk lists: not a folder, its path holding a needle or a byte past ASCII. */
export function secretNameTest(flavour: 'gnu' | 'posix'): string[] {
  const { names, folders } = secretNeedles();
  // toLowerCase maps a few non-ASCII letters to ASCII ones (the Kelvin sign to k): such paths are all listed.
  const nonAscii = '[^ -~]';
  const any =
    flavour === 'gnu'
      ? ['-regextype', 'posix-extended', '-iregex', `.*(${[...names, ...folders.map((d) => `/${d}/`)].map((n) => n.replace(ERE_SPECIAL, '\\$&')).join('|')}|${nonAscii}).*`]
      : [...names.flatMap((n) => ['-iname', `*${n}*`, '-o']), ...folders.flatMap((d) => ['-ipath', `*/${d}/*`, '-o']), '-path', `*${nonAscii}*`];
  return ['!', '-type', 'd', '(', ...any, ')'];
}

export function createSecretNameLister(options: { runtime: Runtime; exec: Executor }): SecretNameLister {
  return async (dir) => {
    const find = options.runtime.which('find');
    if (!find) return undefined;
    const run = (flavour: 'gnu' | 'posix') =>
      options.exec
        .run({ command: find, args: ['.', ...secretNameExpression(flavour)], cwd: dir, env: childEnv(options.runtime, { LC_ALL: 'C' }), timeoutMs: FIND_TIMEOUT_MS, maxOutputBytes: MAX_OUTPUT_BYTES, leavesNothing: true })
        .catch(() => undefined);
    let r = await run('gnu');
    // Another find (BSD's) refuses -regextype before it reads a folder: the portable expression.
    if (r?.exitCode !== 0 && /regextype|unknown (primary|predicate|option)/i.test(r?.stderr ?? '')) r = await run('posix');
    // An unreadable folder (find says so and exits 1) or any failure: the walk in this thread decides.
    if (r?.exitCode !== 0 || r.truncated || r.timedOut || r.cancelled) return undefined;
    const out: string[] = [];
    for (const entry of r.stdout.split('\0')) if (entry.startsWith('./')) out.push(entry.slice(2));
    return out;
  };
}
