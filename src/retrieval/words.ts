// A search by words (issue 20): when the text as typed is nowhere, or the query is plainly a
// question. The code index's natural-language ranker answers first (definition blocks by their
// names, signatures, doc comments and docstrings, as `locate` ranks them); without it, the lines
// that hold most of the question's content words.
import { stemmer } from 'stemmer';
import { escapeRegex } from '../text/linear-regex.ts';
import { type Dispatched, type DispatchRequest, definitionHit, inScope } from './dispatcher.ts';
import { scan } from './fileio.ts';
import type { GraphAdapter } from './graph.ts';
import { phraseTerms } from './query.ts';
import type { Hit, RetrievalDeps } from './types.ts';

// Words that carry no meaning of their own in a question about code.
const STOP_WORDS = new Set(
  'a an and are as at be been by can could did do does for from has have how i if in into is it its me my of on or should so that the their them then there these this those to was we were what when where which who why will with would you your'.split(' '),
);
const QUESTION_START = /^(?:where|how|what|which|who|why|when|does|do|is|are|can|should|find|show)\b/i;

/**
 * A question: it ends with a question mark, or it starts like one and has three or more words with
 * at least one stop word and no code punctuation. Only the question mark makes it plainly one (words
 * first); the rest only reads like one, and an error message may too ("does not contain all of").
 */
export function isQuestion(query: string): boolean {
  const q = query.trim();
  if (/\?\s*$/.test(q) && /\s/.test(q)) return true;
  const words = q.split(/\s+/);
  return QUESTION_START.test(q) && words.length >= 3 && words.some((w) => STOP_WORDS.has(w.toLowerCase())) && !/[(){}[\];=<>"'`]/.test(q);
}

/** The words that say what the question is about (all of them when every word is a stop word). */
export function contentTerms(query: string): string[] {
  const terms = phraseTerms(query);
  const content = terms.filter((t) => !STOP_WORDS.has(t));
  return content.length ? content : terms;
}

export interface WordsDispatched extends Dispatched {
  /** Where the answer came from: the code index's ranker, or lines holding the words. */
  from: 'code index' | 'lines';
}

/**
 * What every form of a word starts with: its stem without a final i or e, which the stemmer writes
 * for y and drops elsewhere (retries and retry → retr, scheduled → schedul); never under three letters.
 */
function stemOf(word: string): string {
  const stem = stemmer(word).replace(/[ie]$/, '');
  return stem.length >= 3 && word.startsWith(stem) ? stem : word;
}

/** At most this many lines holding a question's words are ranked. */
const WORD_LINES_MAX = 2000;

export async function dispatchWords(deps: RetrievalDeps, graph: GraphAdapter, req: DispatchRequest, limit: number): Promise<WordsDispatched> {
  const terms = contentTerms(req.query);
  deps.logger.log('dispatch', { query: req.query, shape: 'words', graph: graph.name });
  if (!terms.length) return { shape: 'phrase', hits: [], capped: false, strategy: 'fileio_words', terms, from: 'lines' };
  const blocks = await graph.searchBlocks(terms.join(' '), (f) => inScope(req, f), limit);
  if (blocks?.hits.length) {
    const hits = blocks.hits.map((b) => ({ ...definitionHit(b), blockScore: b.score }));
    return { shape: 'phrase', hits, capped: false, counts: blocks.perFile, strategy: 'graph_blocks', terms, from: 'code index' };
  }
  // No code index (yet), or it has nothing: the lines holding the most of the words, each word by its
  // stem (retries → retri, scheduled → schedul) so that other forms of it count too.
  const stems = [...new Set(terms.map(stemOf))];
  const r = await scan(deps, { pattern: stems.map(escapeRegex).join('|'), literal: false, wordBoundary: false, ignoreCase: true, scope: req.scope, exclude: req.exclude, signal: req.signal });
  const held = (h: Hit) => {
    const lower = h.text.toLowerCase();
    return stems.filter((t) => lower.includes(t)).length;
  };
  const scored = r.hits.map((h) => ({ h, n: held(h) }));
  // The lines holding the most of the words (all of them when some line does).
  const most = scored.reduce((m, x) => Math.max(m, x.n), 0);
  const hits = scored
    .filter((x) => x.n === most && most > 0)
    .slice(0, WORD_LINES_MAX)
    .map((x) => x.h);
  return { shape: 'phrase', hits, capped: false, ...(r.skipped?.length ? { skipped: r.skipped } : {}), strategy: 'fileio_words', terms: stems, from: 'lines' };
}
