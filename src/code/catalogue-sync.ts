// One walk, one diff, for every stage of the refresh pass: new files are added to the catalogue,
// files whose stat no longer proves them unchanged (file-identity.ts) are marked for the text stage (which reads them and tells
// whether their content changed), files gone from disk are dropped with everything known about them.
// Written in batches, so other processes' writes interleave.
import { mayDiffer } from '../textindex/file-identity.ts';
import type { TextWork } from '../textindex/stage.ts';
import { type CatalogueEntry, parseLanguageOf } from './catalogue.ts';
import type { CodeStore } from './store.ts';

const BATCH = 2000;

export interface CatalogueChanges {
  added: number;
  changed: number;
  removed: number;
  /** Of the added and changed files, those a grammar parses (the parse stage will have work). */
  parseable: number;
}

export async function syncCatalogue(s: CodeStore, entries: readonly CatalogueEntry[], renew?: () => void): Promise<CatalogueChanges> {
  const rows = new Map(s.catalogueRows().map((r) => [r.path, r]));
  const added: CatalogueEntry[] = [];
  const changed: number[] = [];
  let parseable = 0;
  for (const e of entries) {
    const row = rows.get(e.path);
    rows.delete(e.path);
    if (!row) added.push(e);
    else if (row.text_of !== 0 && mayDiffer(row, e)) changed.push(row.id);
    else continue;
    if (parseLanguageOf(e)) parseable++;
  }
  const gone = [...rows.keys()];
  for (let i = 0; i < added.length; i += BATCH) {
    await s.db.writeTransaction(() => {
      renew?.();
      s.addFiles(added.slice(i, i + BATCH));
    });
  }
  for (let i = 0; i < changed.length; i += BATCH) await s.db.writeTransaction(() => s.markChanged(changed.slice(i, i + BATCH)));
  for (let i = 0; i < gone.length; i += BATCH) {
    await s.db.writeTransaction(() => {
      for (const file of gone.slice(i, i + BATCH)) s.remove(file);
    });
  }
  await s.db.writeTransaction(() => s.setMeta('catalogued', '1'));
  return { added: added.length, changed: changed.length, removed: gone.length, parseable };
}

/** The files the text stage must read: those it has not taken in their current version, with their stat now. */
export function textWork(s: CodeStore, entries: readonly CatalogueEntry[]): TextWork[] {
  const rows = new Map(s.untakenByText().map((r) => [r.path, r]));
  const work: TextWork[] = [];
  for (const e of entries) {
    const row = rows.get(e.path);
    if (!row || row.text_of === row.version) continue;
    work.push({ id: row.id, path: row.path, abs: e.abs, size: e.size, mtimeMs: e.mtimeMs, ctimeMs: e.ctimeMs, ino: e.ino, hash: row.hash, version: row.version, statChanged: mayDiffer(row, e) });
  }
  return work;
}
