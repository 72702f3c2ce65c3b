// Programs a repository's own config could make git start (issue 11). A repository is data we were
// asked to read, not code we agreed to run, yet git starts programs its config names: filters on
// the files .gitattributes picks, textconv and external diffs, the fsmonitor hook, hooks on index
// writes (`git diff` refreshes the index), and a transport for lazy fetches of a partial clone.
// Some have a switch that turns them off for every name; filter drivers have none (and
// `--attr-source`, which would sidestep .gitattributes, needs git 2.40), so each driver the config
// defines — includes followed, as git follows them — is blanked for the command that reads the worktree.

/** `-c` switches for every git command: fixed names, so `-c key=value` parses unambiguously. */
export const SAFE_CONFIG: readonly string[] = [
  '-c', 'core.fsmonitor=false',
  '-c', 'core.untrackedCache=false',
  // Hooks run on index writes (post-index-change), which `git diff` does to refresh stat data.
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'log.showSignature=false',
  '-c', 'status.submoduleSummary=false',
  '-c', 'color.ui=false',
  '-c', 'core.quotePath=false',
  '-c', 'core.pager=cat',
  '-c', 'diff.noprefix=false',
];

/**
 * Environment for every git command: a partial clone's lazy fetch of a missing object would start
 * a transport (`core.sshCommand`, an `ext::` command, a remote helper). GIT_NO_LAZY_FETCH turns lazy
 * fetching off (git 2.39.4, 2.45.1 and later); for older git, GIT_ALLOW_PROTOCOL lists the allowed
 * transports and no transport is named "".
 */
export const NO_TRANSPORT_ENV: Readonly<Record<string, string>> = { GIT_NO_LAZY_FETCH: '1', GIT_ALLOW_PROTOCOL: '' };

/** Switches for diff: no external diff, no textconv, and no command run inside a submodule. */
export const SAFE_DIFF_FLAGS: readonly string[] = ['--no-ext-diff', '--no-textconv', '--ignore-submodules=dirty', '--submodule=short'];

export interface WorktreeGuard {
  /** Filter drivers the repository's config defines; none of them runs. */
  filters: string[];
  /** GIT_CONFIG_COUNT/KEY/VALUE entries that blank them (no `-c`: a driver name may hold `=`). */
  env: Record<string, string>;
}

/** Splits `git config --list -z` output into keys and values (a key without `=` has no value). */
export function parseConfigList(list: string): { key: string; value?: string }[] {
  return list
    .split('\0')
    .filter(Boolean)
    .map((record) => {
      const nl = record.indexOf('\n');
      return nl < 0 ? { key: record } : { key: record.slice(0, nl), value: record.slice(nl + 1) };
    });
}

/** The overrides that turn off every filter driver named in the config list. */
export function guardFromConfig(list: string): WorktreeGuard {
  const filters = new Set<string>();
  for (const { key } of parseConfigList(list)) {
    // filter.<driver>.<variable>: the driver name sits between the first and the last dot.
    const first = key.indexOf('.');
    const last = key.lastIndexOf('.');
    if (first > 0 && last > first && key.slice(0, first).toLowerCase() === 'filter') filters.add(key.slice(first + 1, last));
  }
  const pairs: [string, string][] = [];
  for (const name of filters) {
    // An empty clean/smudge/process means "no filter"; required=false keeps git from refusing then.
    pairs.push([`filter.${name}.clean`, ''], [`filter.${name}.smudge`, ''], [`filter.${name}.process`, ''], [`filter.${name}.required`, 'false']);
  }
  const env: Record<string, string> = {};
  if (pairs.length) {
    env.GIT_CONFIG_COUNT = String(pairs.length);
    pairs.forEach(([key, value], i) => {
      env[`GIT_CONFIG_KEY_${i}`] = key;
      env[`GIT_CONFIG_VALUE_${i}`] = value;
    });
  }
  return { filters: [...filters].sort(), env };
}
