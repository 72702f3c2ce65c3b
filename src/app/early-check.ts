// A stdio server's warm start begun when the process starts, before the client's handshake: with a
// note of an earlier whole check of a big index beside code.db (a project searched before), the
// finds that list what changed since and the secret names (one walk: workspace/changed-since.ts)
// start at once, in processes of their own, instead of after the tool list (the app's build). On a
// loaded machine they took ~0.5–1.5 s, which a first search otherwise waited for; the app's code
// index takes the list (CodeIndexDeps.earlyList).
import { createExecutor } from '../exec/executor.ts';
import type { Runtime } from '../runtime/types.ts';
import { knownSecrets, listSecretNamesWith } from '../security/secret-identities.ts';
import { RACY_MS } from '../textindex/file-identity.ts';
import { createChangedSince, LIST_FROM_FILES, listChangedAndSecretNames } from '../workspace/changed-since.ts';
import { UNENTERED_DIRS } from '../workspace/list.ts';
import { createSecretNameLister } from '../workspace/secret-names.ts';
import { readCheckedNote } from './checked-note.ts';
import type { AppSettings } from './settings.ts';

/** find's list of what changed under `root` since `since` (ms since the epoch), started early. */
export interface EarlyList {
  root: string;
  since: number;
  listed: Promise<string[] | undefined>;
}

/**
 * Starts the finds when the note names a check of LIST_FROM_FILES files or more; the list, or
 * undefined (nothing started). The finds run under an executor of their own: short-lived (a
 * minute's time limit), they end by themselves if this process does first.
 */
export function startEarlyCheck(runtime: Runtime, settings: AppSettings, note = readCheckedNote(runtime, settings.projectRoot)): EarlyList | undefined {
  if (!note || note.files < LIST_FROM_FILES) return undefined;
  const exec = createExecutor(runtime);
  const since = note.at - RACY_MS;
  const root = settings.projectRoot;
  const options = { runtime, exec, root, skipDirs: [...UNENTERED_DIRS, ...settings.config.scan.excludeDirs] };
  // One walk for both lists where find can (GNU's), else one find each.
  const both = listChangedAndSecretNames(options, since);
  const lister = createSecretNameLister({ runtime, exec });
  // The app registers its own lister when it is built; this walk's result is kept (by workdirs).
  const was = listSecretNamesWith(both ? async (dir) => (dir === root && (await both.secretNames)) || lister(dir) : lister);
  knownSecrets(runtime.fs, { dirs: [...settings.workdirs] }).catch(() => undefined);
  listSecretNamesWith(was);
  return { root, since, listed: both ? both.changed : createChangedSince(options)(since) };
}
