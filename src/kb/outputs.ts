// Command and tool output kept in the knowledge base: chunked as text, stored under one label (the
// same label replaces the earlier output — on a team's Postgres, this checkout's earlier output:
// another machine's output of the same label stays beside it, pg-store.ts).
import { chunkText } from './chunk/text.ts';
import type { KnowledgeStore } from './knowledge-store.ts';
import type { SourceKind } from './store.ts';

export interface OutputToIndex {
  label: string;
  kind: SourceKind;
  text: string;
}

export interface IndexedOutput {
  chunks: number;
}

/** Stores the output in its own transaction, waiting (without blocking) while another process writes. */
export async function indexOutput(kb: KnowledgeStore, output: OutputToIndex): Promise<IndexedOutput> {
  const chunks = chunkText(output.text, output.label);
  await kb.save({ key: `${output.kind}:${output.label}`, kind: output.kind, label: output.label, chunks });
  return { chunks: chunks.length };
}
