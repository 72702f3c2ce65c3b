// ripgrep opens the files it searches itself: by name (it cannot tell a hard link of `.env` from any
// other file) and following a file swapped for a symlink after its walk listed it. So its answer is
// checked against the files as the built-in engine opens them (issue 23, items 2–3): a file whose
// lines are shown is opened without following a symlink and judged (identity, key content), and each
// line rg reported must be the text of that file at that line; counted files are judged by identity.
import * as path from 'node:path';
import type { ReadBuffer, RuntimeFs } from '../../runtime/types.ts';
import { identityVerdict, type SecretIdentities } from '../../security/secret-identities.ts';
import { judgeOpened } from '../../security/secret-read.ts';
import { readBuffer } from './scan-files.ts';
import { type GrepFile, type GrepLine, MAX_SEARCH_FILE_BYTES } from './types.ts';

/** The shown part of a line (a long line is a window between ellipses). */
function shownText(l: GrepLine): string {
  let t = l.text;
  if (t.startsWith('…')) t = t.slice(1);
  if (t.endsWith('…')) t = t.slice(0, -1);
  return t;
}

/** True when every line rg reported is in the file's text at its line number. */
export function holdsLines(bytes: Uint8Array, lines: readonly GrepLine[]): boolean {
  const text = new TextDecoder().decode(bytes).split('\n');
  return lines.every((l) => text[l.line - 1]?.includes(shownText(l)) === true);
}

/**
 * The bytes of a file opened without following a symlink, when it is a regular file and no secret
 * (identity, content); `into`: read into that buffer (the bytes are a view of it, see ReadBuffer).
 */
export function openedText(fs: RuntimeFs, workdir: string, known: SecretIdentities, file: string, into?: ReadBuffer): Uint8Array | undefined {
  const opened = fs.readOpenedSync(path.join(workdir, file), MAX_SEARCH_FILE_BYTES, { into });
  return opened !== undefined && judgeOpened(known, file, opened) === undefined ? opened.bytes : undefined;
}

/** The files of rg's answer that are what they seem: regular files, no secret, holding the lines shown. */
export function verifiedFiles(fs: RuntimeFs, workdir: string, known: SecretIdentities, files: readonly GrepFile[]): GrepFile[] {
  const into = readBuffer();
  return files.filter((f) => {
    const bytes = openedText(fs, workdir, known, f.path, into);
    return bytes !== undefined && holdsLines(bytes, f.lines);
  });
}

/**
 * Drops from rg's counts the files that are other names of known secrets (or hard links newer than
 * they are), and those whose content makes them secret: `holdingNeedles` names the counted files
 * that hold one of CONTENT_NEEDLES (ripgrep finds them without this thread reading every file), and
 * only those are opened and judged.
 */
export async function dropSecretCounts(fs: RuntimeFs, workdir: string, known: SecretIdentities, counts: Map<string, number>, holdingNeedles: (files: readonly string[]) => Promise<ReadonlySet<string>>): Promise<void> {
  for (const file of counts.keys()) {
    const st = fs.lstatSync(path.join(workdir, file));
    if (!st?.isFile || identityVerdict(known, st) !== undefined) counts.delete(file);
  }
  if (!counts.size) return;
  const into = readBuffer();
  for (const file of await holdingNeedles([...counts.keys()])) {
    if (counts.has(file) && openedText(fs, workdir, known, file, into) === undefined) counts.delete(file);
  }
}
