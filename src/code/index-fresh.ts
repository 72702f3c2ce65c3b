// The code index's freshness checks: an answer names the files it rests on (or the project watch
// names the files it saw change), and any touched since both stages took them is taken again before
// the answer is given — its catalogue row and text first, in one small segment, then its parse.
import * as path from 'node:path';
import { mayDiffer, sameStat } from '../textindex/file-identity.ts';
import { fileHash } from '../textindex/stage.ts';
import { type CatalogueEntry, createCatalogueJudge, entryOf } from './catalogue.ts';
import { textWork } from './catalogue-sync.ts';
import { prepareFile, writeBatch } from './index-parse.ts';
import { type IndexShared, PARSER_VERSION } from './index-shared.ts';
import type { CodeStore } from './store.ts';
import { takeText } from './text-pass.ts';

/** Files whose parse is asked for at once by one check. */
const PARSES_AT_ONCE = 32;

/** Takes again any of these files (relative paths, each once) touched since they were indexed; how many changed. */
export async function freshFiles(shared: IndexShared, s: CodeStore, list: readonly string[]): Promise<number> {
  const unique = await needingWork(shared, s, list);
  if (!unique.length) return 0;
  const newText = await freshText(shared, s, unique);
  let changed = 0;
  // Parsed several at a time (the parse workers run side by side), a bounded number read at once.
  for (let i = 0; i < unique.length; i += PARSES_AT_ONCE) {
    const chunk = unique.slice(i, i + PARSES_AT_ONCE);
    const jobs = chunk.map((rel) => {
      let job = shared.inFlight.get(rel);
      if (!job) {
        job = freshOne(shared, s, rel).finally(() => shared.inFlight.delete(rel));
        shared.inFlight.set(rel, job);
      }
      return job;
    });
    const done = await Promise.all(jobs);
    for (let k = 0; k < chunk.length; k++) if (done[k] || newText.has(chunk[k]!)) changed++;
  }
  return changed;
}

/**
 * The files of `list` that changed since both stages took them (or appeared, or went): one read
 * transaction for all their rows and the stats in parallel — an answer over a thousand files checks
 * them all, and one lock cycle per lookup cost more than the lookups.
 */
async function needingWork(shared: IndexShared, s: CodeStore, list: readonly string[]): Promise<string[]> {
  const judgedAt = Date.now();
  const stats = await Promise.all(list.map((rel) => shared.fs.stat(path.join(shared.listing.root, rel))));
  const rows = s.db.readTransaction(() => list.map((rel) => s.file(rel)));
  // Gone, or a folder: nothing the catalogue could hold.
  const nothing = list.filter((_, i) => !stats[i]?.isFile && !rows[i]);
  if (nothing.length) shared.notCatalogued?.(nothing, judgedAt);
  return list.filter((_, i) => {
    const st = stats[i];
    const row = rows[i];
    if (!st?.isFile) return row !== undefined;
    return !row || mayDiffer(row, st) || row.text_of !== row.version || row.parsed_of !== row.version || row.parser !== PARSER_VERSION;
  });
}

/** The catalogue and text stage for files touched since they were indexed, all in one small segment; those whose content changed. */
async function freshText(shared: IndexShared, s: CodeStore, list: readonly string[]): Promise<Set<string>> {
  const entries: CatalogueEntry[] = [];
  const added: CatalogueEntry[] = [];
  const changed: number[] = [];
  const before = new Map<string, number>();
  // Made for this batch: the .gitignore files as they are now (see createCatalogueJudge).
  let takes: ((rel: string) => boolean) | undefined;
  const judgedAt = Date.now();
  const notTaken: string[] = [];
  /** Racy rows whose content proved them the version taken: read again at `takenAt`. */
  const confirmed: Parameters<CodeStore['confirmTaken']>[0][number][] = [];
  for (const rel of list) {
    const abs = path.join(shared.listing.root, rel);
    const st = await shared.fs.stat(abs);
    const row = s.file(rel);
    if (!st?.isFile) {
      if (!row) notTaken.push(rel);
      continue;
    }
    const entry = entryOf(rel, abs, st);
    if (!row) {
      takes ??= createCatalogueJudge(shared.fs, shared.listing);
      if (!takes(rel)) {
        notTaken.push(rel);
        continue;
      }
      added.push(entry);
    } else if (mayDiffer(row, st)) {
      // Taken within a clock tick of its last write, unchanged by its stat: its content decides
      // before it is marked (a marked file is a candidate of every query until read again).
      const readAt = Date.now();
      if (row.text_of === row.version && sameStat(row, st) && row.hash !== '' && (await fileHash(shared.fs, abs)) === row.hash) {
        confirmed.push({ ...row, takenAt: readAt });
        continue;
      }
      changed.push(row.id);
      before.set(rel, row.version);
    } else if (row.text_of === row.version) continue;
    entries.push(entry);
  }
  if (notTaken.length) shared.notCatalogued?.(notTaken, judgedAt);
  if (confirmed.length) await s.db.writeTransaction(() => s.confirmTaken(confirmed));
  if (!entries.length) return new Set();
  await s.db.writeTransaction(() => {
    s.addFiles(added);
    s.markChanged(changed);
  });
  for (const e of added) shared.paths?.add(e.path);
  await takeText(s, textWork(s, entries), { fs: shared.fs, logger: shared.logger, stopped: () => shared.closed });
  return new Set(entries.filter((e) => !before.has(e.path) || s.file(e.path)?.version !== before.get(e.path)).map((e) => e.path));
}

/** The parse stage for one file (freshText has run: its row holds the version the parse must take); whether it changed. */
async function freshOne(shared: IndexShared, s: CodeStore, rel: string): Promise<boolean> {
  const abs = path.join(shared.listing.root, rel);
  const st = await shared.fs.stat(abs);
  const row = s.file(rel);
  if (!st?.isFile) {
    if (!row) return false;
    await s.db.writeTransaction(() => s.remove(rel));
    shared.paths?.delete(rel);
    return true;
  }
  if (!row || (row.parsed_of === row.version && row.parser === PARSER_VERSION)) return false;
  // An answer waits on it: ahead of any build's queued files.
  const pending = await (await prepareFile(shared, s, entryOf(rel, abs, st), row, true)).result;
  if (pending) await writeBatch(s, [pending]);
  return pending !== undefined;
}
