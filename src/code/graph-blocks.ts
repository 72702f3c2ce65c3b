// Questions in words: definition blocks ranked by BM25 in FTS5, the phrase first.
import { type Definition, toDefinition } from './graph-definitions.ts';
import { identifierWords } from './identifier-words.ts';
import type { CodeIndex } from './index.ts';
import { isDocumentation } from './languages.ts';
import type { CodeStore } from './store.ts';

export interface BlockHit extends Definition {
  score: number;
}

/** FTS5 query text: the phrase, then every word (each quoted, so no word is an operator). */
function ftsQueries(question: string): { named: string; phrase: string; all: string; any: string } | undefined {
  // Identifiers in the question count as their words, as names do in the index (fiberRef → fiber ref).
  const words = (question.match(/[\p{L}\p{N}_]+/gu) ?? []).flatMap((w) => identifierWords(w)).filter((w) => w.length > 1);
  if (!words.length) return undefined;
  const quoted = words.map((w) => `"${w.replace(/"/g, '')}"`);
  const phrase = `"${words.join(' ')}"`;
  return { named: `{name signature doc} : ${phrase}`, phrase, all: quoted.join(' AND '), any: quoted.join(' OR ') };
}

export interface BlockAnswer {
  hits: BlockHit[];
  /** Matching blocks per file over the whole scope (the gate's totals and distribution). */
  perFile: Map<string, number>;
}

/** Definition blocks answering a question in words: phrase matches first, then all words, then any, BM25 within each. */
export async function searchBlocks(index: CodeIndex, question: string, inScope: (file: string) => boolean, limit: number): Promise<BlockAnswer | undefined> {
  const store = await index.ready();
  if (!store) return undefined;
  const first = rankBlocks(store, question, inScope, limit);
  // Lines move when a file is edited: answer again from the files as they are now.
  return (await index.fresh(new Set(first.hits.map((h) => h.file)))) ? rankBlocks(store, question, inScope, limit) : first;
}

function rankBlocks(store: CodeStore, question: string, inScope: (file: string) => boolean, limit: number): BlockAnswer {
  const q = ftsQueries(question);
  if (!q) return { hits: [], perFile: new Map() };
  const seen = new Set<number>();
  const hits: BlockHit[] = [];
  let perFile = new Map<string, number>();
  // The phrase in a name, signature or doc comment; the phrase anywhere (body identifiers included);
  // every word; any word. Each tier ranks below the one before it.
  const tiers: [string, number][] = [
    [q.named, 1],
    [q.phrase, 0.85],
    [q.all, 0.7],
    [q.any, 0.5],
  ];
  for (const [match, base] of tiers) {
    const rows = store.searchBlocks(match, limit * 4).filter((r) => inScope(r.path) && !seen.has(r.id) && !isDocumentation(r.path));
    if (!rows.length) continue;
    // The gate counts the blocks of the strictest tier that answers at all.
    if (!perFile.size) perFile = new Map([...store.blocksPerFile(match)].filter(([f]) => inScope(f)));
    const best = rows[0]!.rank;
    for (const r of rows) {
      seen.add(r.id);
      // bm25 is negative, lower is better: scale within the tier to (0.6–1] × base.
      const rel = best < 0 ? r.rank / best : 1;
      hits.push({ ...toDefinition(r), score: Math.round(base * (0.6 + 0.4 * rel) * 1000) / 1000 });
    }
    if (hits.length >= limit) break;
  }
  return { hits: hits.slice(0, limit), perFile };
}
