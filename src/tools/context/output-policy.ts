// The output policy (ctxmode spec): small output goes back verbatim; output over 100 KB (over 5 KB
// when the caller said what it is looking for) is indexed into the knowledge base, and the reply
// gives a short tail preview and the exact search call that reaches the rest.
import type { KbHandle } from '../../kb/open.ts';
import { indexOutput } from '../../kb/outputs.ts';
import { searchKnowledge } from '../../kb/search.ts';
import type { SourceKind } from '../../kb/store.ts';
import type { ToolReply } from '../registry.ts';

export const INDEX_THRESHOLD_BYTES = 100 * 1024;
export const INTENT_THRESHOLD_BYTES = 5 * 1024;
const PREVIEW_LINES = 15;
const PREVIEW_BYTES = 1500;

export interface LargeOutput {
  /** Names the source in the knowledge base; the same label replaces the earlier output. */
  label: string;
  kind: SourceKind;
  /** One line saying what ran and how it ended, kept at the top of the reply. */
  summary: string;
  text: string;
  intent?: string;
}

export function exceedsThreshold(text: string, intent?: string): boolean {
  const bytes = new TextEncoder().encode(text).length;
  return bytes > (intent ? INTENT_THRESHOLD_BYTES : INDEX_THRESHOLD_BYTES);
}

function tailPreview(text: string): string {
  const lines = text.replace(/\n+$/, '').split('\n');
  let out = lines.slice(-PREVIEW_LINES).join('\n');
  if (out.length > PREVIEW_BYTES) out = `…${out.slice(-PREVIEW_BYTES)}`;
  return out;
}

/** Indexes the output and answers with a pointer, or returns undefined when it is small enough to return. */
export async function keepOutOfContext(kbHandle: KbHandle, output: LargeOutput): Promise<ToolReply | undefined> {
  if (!exceedsThreshold(output.text, output.intent)) return undefined;
  const kb = await kbHandle.get();
  const { bytes, lines, chunks } = indexOutput(kb, output);
  const parts = [
    output.summary,
    `output: ${bytes} bytes, ${lines} lines — indexed as "${output.label}" (${chunks} chunks) instead of returned`,
    `tail:\n${tailPreview(output.text)}`,
    `search the rest: ctx_kb {"action":"search","query":"<what you need>","source":${JSON.stringify(output.label)}}`,
  ];
  let best: ReturnType<typeof searchKnowledge>['hits'] = [];
  if (output.intent) {
    best = searchKnowledge(kb, { query: output.intent, limit: 3, source: output.label }).hits;
    if (best.length) parts.push(`best matches for "${output.intent}":\n${best.map((h) => `- lines ${h.lines?.join('-') ?? '?'}: ${h.snippet}`).join('\n')}`);
  }
  const text = parts.join('\n');
  kb.count('bytes_returned', text.length);
  return { text, structured: { indexed: true, source: output.label, bytes, lines, chunks, matches: best } };
}
