// A stdio server's warm start begun when the process starts, before the client's handshake: with a
// note of an earlier whole check of a big index beside code.db (a project searched before), the
// finds that list what changed since (workspace/changed-since.ts) and the one that lists the secret
// names (workspace/secret-names.ts) start at once, in processes of their own, instead of after the
// tool list (the app's build). On a loaded machine they took ~0.5–1.5 s, which a first search
// otherwise waited for; the app's code index takes the list (CodeIndexDeps.earlyList).
import * as path from 'node:path';
import { projectDataDir } from '../config/paths.ts';
import { createExecutor } from '../exec/executor.ts';
import type { Runtime } from '../runtime/types.ts';
import { knownSecrets, listSecretNamesWith } from '../security/secret-identities.ts';
import { RACY_MS } from '../textindex/file-identity.ts';
import { createChangedSince, LIST_FROM_FILES } from '../workspace/changed-since.ts';
import { UNENTERED_DIRS } from '../workspace/list.ts';
import { createSecretNameLister } from '../workspace/secret-names.ts';
import type { AppSettings } from './settings.ts';

/** find's list of what changed under `root` since `since` (ms since the epoch), started early. */
export interface EarlyList {
  root: string;
  since: number;
  listed: Promise<string[] | undefined>;
}

/** The note of the index's last whole check beside code.db (when it began, how many files). */
export interface CheckedNote {
  read(): { at: number; files: number } | undefined;
  write(note: { at: number; files: number }): void;
}

/** Unreadable or malformed: no note (the check waits for the database). */
export function checkedNote(runtime: Runtime, file: string): CheckedNote {
  return {
    read() {
      try {
        const note = JSON.parse(runtime.fs.readTextFileSync(file)) as { at?: unknown; files?: unknown };
        return typeof note.at === 'number' && typeof note.files === 'number' ? { at: note.at, files: note.files } : undefined;
      } catch {
        return undefined;
      }
    },
    write(note) {
      runtime.fs.writeFileAtomicSync(file, JSON.stringify(note), 0o600);
    },
  };
}

export function checkedNoteFile(dataDir: string): string {
  return path.join(dataDir, 'code.db-checked');
}

/**
 * Starts the finds when the note names a check of LIST_FROM_FILES files or more; the list, or
 * undefined (nothing started). The finds run under an executor of their own: short-lived (a
 * minute's time limit), they end by themselves if this process does first.
 */
export function startEarlyCheck(runtime: Runtime, settings: AppSettings): EarlyList | undefined {
  const note = checkedNote(runtime, checkedNoteFile(projectDataDir(runtime, settings.projectRoot))).read();
  if (!note || note.files < LIST_FROM_FILES) return undefined;
  const exec = createExecutor(runtime);
  const since = note.at - RACY_MS;
  const changedSince = createChangedSince({ runtime, exec, root: settings.projectRoot, skipDirs: [...UNENTERED_DIRS, ...settings.config.scan.excludeDirs] });
  // The app registers its own lister when it is built; this walk's result is kept (by workdirs).
  const was = listSecretNamesWith(createSecretNameLister({ runtime, exec }));
  knownSecrets(runtime.fs, { dirs: [...settings.workdirs] }).catch(() => undefined);
  listSecretNamesWith(was);
  return { root: settings.projectRoot, since, listed: changedSince(since) };
}
