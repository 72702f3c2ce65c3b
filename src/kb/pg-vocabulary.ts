// The project's vocabulary on Postgres: every distinct word its chunks hold, one row per word,
// written once (ON CONFLICT DO NOTHING) — for the substring fallback ("rderhandl" → the words that
// contain it, then their chunks through the stemmed index) and for correcting a misspelt word. One
// trigram index over the words of a project costs little next to one over every chunk's words.
import type { TransactionSql } from '../storage/postgres/connection.ts';
import type { SourceInput } from './store.ts';
import { wordsOf } from './store.ts';

/** The distinct words of the sources' chunks, sorted (two writers insert shared words in one order). */
export function vocabularyOf(inputs: readonly SourceInput[]): string[] {
  const words = new Set<string>();
  for (const input of inputs) {
    for (const c of input.chunks) {
      for (const w of wordsOf(c.title)) words.add(w);
      for (const w of wordsOf(c.body)) words.add(w);
    }
  }
  return [...words].sort();
}

/** Adds the words the project's vocabulary does not hold yet. */
export async function addWords(tx: TransactionSql, projectKey: string, words: readonly string[]): Promise<void> {
  if (!words.length) return;
  await tx`INSERT INTO kb_words (project_key, word) SELECT ${projectKey}, w FROM unnest(${words as string[]}::text[]) AS w ON CONFLICT DO NOTHING`;
}
