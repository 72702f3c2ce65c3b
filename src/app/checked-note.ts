// The note of the code index's last whole check, kept beside code.db: when it began and how many
// files it saw. A stdio server reads it before anything else (cli/serve-stdio.ts): without one, the
// early check's modules (app/early-check.ts) are not even loaded.
import * as path from 'node:path';
import { projectDataDir } from '../config/paths.ts';
import type { Runtime } from '../runtime/types.ts';

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

/** The note of `projectRoot`'s index, or undefined — also when the data dir is unusable (the app's build says why). */
export function readCheckedNote(runtime: Runtime, projectRoot: string): { at: number; files: number } | undefined {
  let dataDir: string;
  try {
    dataDir = projectDataDir(runtime, projectRoot);
  } catch {
    return undefined;
  }
  return checkedNote(runtime, checkedNoteFile(dataDir)).read();
}
