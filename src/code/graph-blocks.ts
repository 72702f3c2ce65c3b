// Questions in words: definition blocks ranked by BM25 in FTS5, the words in a name, signature or doc first.
import { type Definition, toDefinition } from './graph-definitions.ts';
import { identifierWords } from './identifier-words.ts';
import type { CodeIndex } from './index.ts';
import { isDocumentation } from './languages.ts';
import type { CodeStore } from './store.ts';

export interface BlockHit extends Definition {
  score: number;
}

/**
 * FTS5 query text: every word in a name, signature or doc comment; every word anywhere; any word
 * (each word quoted, so none is an operator). The index keeps no word positions (schema 8), so a
 * phrase is judged here, on the name and signature of each row (phraseIn).
 */
function ftsQueries(question: string): { words: string[]; named: string; inDoc: string; all: string; any: string } | undefined {
  // Identifiers in the question count as their words, as names do in the index (fiberRef → fiber ref).
  const words = (question.match(/[\p{L}\p{N}_]+/gu) ?? []).flatMap((w) => identifierWords(w)).filter((w) => w.length > 1);
  if (!words.length) return undefined;
  const quoted = words.map((w) => `"${w.replace(/"/g, '')}"`);
  const all = quoted.join(' AND ');
  return { words, named: `{name signature doc} : (${all})`, inDoc: `doc : (${all})`, all, any: quoted.join(' OR ') };
}

/** Whether the words follow one another in the definition's name (with its container) or signature, as words of identifiers. */
function phraseIn(words: readonly string[], r: { name: string; container: string | null; signature: string }): boolean {
  if (words.length < 2) return true;
  const phrase = ` ${words.join(' ')} `;
  const wordsOf = (text: string) => ` ${(text.match(/[\p{L}\p{N}_]+/gu) ?? []).flatMap((w) => identifierWords(w)).join(' ')} `;
  return wordsOf(`${r.name} ${r.container ?? ''}`).includes(phrase) || wordsOf(r.signature).includes(phrase);
}

export interface BlockAnswer {
  hits: BlockHit[];
  /** Matching blocks per file over the whole scope (the gate's totals and distribution). */
  perFile: Map<string, number>;
}

/** Definition blocks answering a question in words: every word in a name, signature or doc first, then all words, then any, BM25 within each. */
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
  // Every word in a name, signature or doc comment (the phrase in a name or signature, or every word
  // in the doc comment, first); every word anywhere (body identifiers included); any word. Each tier
  // ranks below the one before it.
  const tiers: [string, number][] = [
    [q.named, 1],
    [q.all, 0.7],
    [q.any, 0.5],
  ];
  for (const [match, base] of tiers) {
    const found = store.searchBlocks(match, limit * 4).filter((r) => inScope(r.path) && !seen.has(r.id) && !isDocumentation(r.path));
    if (!found.length) continue;
    // The gate counts the blocks of the strictest tier that answers at all.
    if (!perFile.size) perFile = new Map([...store.blocksPerFile(match)].filter(([f]) => inScope(f)));
    const best = found[0]!.rank;
    // In the first tier, a row holding the question as a phrase in its name or signature, or all its
    // words in its doc comment, ranks above one holding its words apart.
    const inDoc = base === 1 && q.words.length > 1 ? store.blocksAmong(q.inDoc, found.map((r) => r.id)) : undefined;
    const judged = found.map((r) => ({ r, phrase: !inDoc || inDoc.has(r.id) || phraseIn(q.words, r) }));
    for (const { r, phrase } of [...judged.filter((j) => j.phrase), ...judged.filter((j) => !j.phrase)]) {
      seen.add(r.id);
      // bm25 is negative, lower is better: scale within the tier to (0.6–1] × base (× 0.85 apart).
      const rel = best < 0 ? r.rank / best : 1;
      hits.push({ ...toDefinition(r), score: Math.round((phrase ? base : base * 0.85) * (0.6 + 0.4 * rel) * 1000) / 1000 });
    }
    if (hits.length >= limit) break;
  }
  return { hits: hits.slice(0, limit), perFile };
}
