// What the code index on disk holds, read from the database alone: any process (a server, `ctxgate
// stats`, `doctor`) tells the same, whether or not it built the index or has looked at the project.
import { type LeaseHolder, leaseHolder } from '../storage/lease.ts';
import { CATALOGUE_SYNCED_AT, LEASE_NAME } from './index-pass.ts';
import { PARSER_VERSION } from './index-shared.ts';
import type { CodeStore } from './store.ts';

export interface IndexOnDisk {
  /** Files in the catalogue. */
  files: number;
  /** Files whose current version the text or the parse stage has not taken yet. */
  stale: number;
  /** A first build finished (both stages over every file then catalogued). */
  complete: boolean;
  textComplete: boolean;
  /** When the newest catalogue listing that was synced began (ms since the epoch). */
  listedAt: number | undefined;
  /** The process building it now (holding the build lease), if any. */
  building: LeaseHolder | undefined;
}

export function indexOnDisk(s: CodeStore): IndexOnDisk {
  const db = s.db;
  return db.readTransaction(() => {
    const listed = Number(s.meta(CATALOGUE_SYNCED_AT) ?? 0);
    return {
      files: Number(db.value('SELECT count(*) FROM code_files') ?? 0),
      stale: Number(db.value('SELECT count(*) FROM code_files WHERE text_of != version OR parsed_of != version OR parser != ?', [PARSER_VERSION]) ?? 0),
      complete: s.meta('complete') === '1',
      textComplete: s.meta('text_complete') === '1',
      listedAt: listed > 0 ? listed : undefined,
      building: leaseHolder(db, LEASE_NAME),
    };
  });
}

/** One line for people: what the index on disk holds, and who builds it. */
export function describeIndexOnDisk(d: IndexOnDisk | undefined, ownPid?: number): string {
  if (!d || (!d.files && !d.building)) return 'code index: not built yet (it builds on the first gate call)';
  const files = `${d.files.toLocaleString('en-US')} files`;
  const stale = d.stale ? `, ${d.stale.toLocaleString('en-US')} not taken in their current version yet` : ', none stale';
  const by = d.building ? `; being built by ${d.building.pid === ownPid && !d.building.host ? 'this process' : `pid ${d.building.pid}${d.building.host ? ` on ${d.building.host}` : ''}`} since ${new Date(d.building.since).toISOString().replace('T', ' ').slice(0, 19)} UTC` : '';
  const state = d.complete ? 'complete' : 'first build not finished';
  const listed = d.listedAt ? `; last listed ${new Date(d.listedAt).toISOString().replace('T', ' ').slice(0, 19)} UTC` : '';
  return `code index: ${state}, ${files}${stale}${listed}${by}`;
}
