// The output policy (ctxmode spec): small output goes back verbatim; output over 100 KB (over 5 KB
// when the caller said what it is looking for) is indexed into the knowledge base, and the reply
// gives a short tail preview and the exact search call that reaches the rest.
import type { ToolReply } from '../tools/registry.ts';
import type { AppContext } from '../app/context.ts';
import { chunkText } from './chunk/text.ts';
import { searchKnowledge } from './search.ts';
import type { SourceKind } from './store.ts';

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

function tail(text: string): string {
  const lines = text.replace(/\n+$/, '').split('\n');
  let out = lines.slice(-PREVIEW_LINES).join('\n');
  if (out.length > PREVIEW_BYTES) out = `…${out.slice(-PREVIEW_BYTES)}`;
  return out;
}

/** Indexes the output and answers with a pointer, or returns undefined when it is small enough to return. */
export async function keepOutOfContext(app: AppContext, output: LargeOutput): Promise<ToolReply | undefined> {
  if (!exceedsThreshold(output.text, output.intent)) return undefined;
  const kb = await app.kb.get();
  const chunks = chunkText(output.text, output.label);
  const key = `${output.kind}:${output.label}`;
  kb.put({ key, kind: output.kind, label: output.label, chunks });
  const bytes = new TextEncoder().encode(output.text).length;
  const lines = output.text.split('\n').length;
  const parts = [
    output.summary,
    `output: ${bytes} bytes, ${lines} lines — indexed as "${output.label}" (${chunks.length} chunks) instead of returned`,
    `tail:\n${tail(output.text)}`,
    `search the rest: ctx_kb {"action":"search","query":"<what you need>","source":${JSON.stringify(output.label)}}`,
  ];
  let best: ReturnType<typeof searchKnowledge>['hits'] = [];
  if (output.intent) {
    best = searchKnowledge(kb, { query: output.intent, limit: 3, source: output.label }).hits;
    if (best.length) parts.push(`best matches for "${output.intent}":\n${best.map((h) => `- lines ${h.lines?.join('-') ?? '?'}: ${h.snippet}`).join('\n')}`);
  }
  const text = parts.join('\n');
  kb.count('bytes_kept_out', bytes);
  kb.count('bytes_returned', text.length);
  return { text, structured: { indexed: true, source: output.label, bytes, lines, chunks: chunks.length, matches: best } };
}
