// The output policy (ctxmode spec): small output goes back verbatim; output over 100 KB (over 5 KB
// when the caller said what it is looking for) is indexed into the knowledge base, and the reply
// gives a short tail preview and the exact search call that reaches the rest.
// Nothing is lost (issue 12): when the knowledge base cannot take the output, the reply carries its
// head and tail, says why, and names the spool file that holds all of it.
import * as path from 'node:path';
import type { AppContext } from '../../app/context.ts';
import { messageOf } from '../../errors.ts';
import { indexOutput } from '../../kb/outputs.ts';
import { spoolOutput, SPOOL_MAX_AGE_MS } from '../../kb/spool.ts';
import type { SourceKind } from '../../kb/store.ts';
import type { ToolReply } from '../registry.ts';
import { formatBytes } from './usage-printer.ts';

export const INDEX_THRESHOLD_BYTES = 100 * 1024;
export const INTENT_THRESHOLD_BYTES = 5 * 1024;
const PREVIEW_LINES = 15;
const PREVIEW_BYTES = 1500;

/** What the policy needs from the app: the knowledge base, and the data dir and files for the spool. */
export type OutputStore = Pick<AppContext, 'kb' | 'dataDir' | 'runtime' | 'logger' | 'config'>;

export interface LargeOutput {
  /** Names the source in the knowledge base; the same label replaces the earlier output. */
  label: string;
  kind: SourceKind;
  /** One line saying what ran and how it ended, kept at the top of the reply. */
  summary: string;
  text: string;
  intent?: string;
  /** Bytes the command wrote when more than `text` holds (the capture kept its head and tail). */
  producedBytes?: number;
}

/** Whether output of this many bytes goes to the knowledge base instead of the reply. */
export function exceedsThreshold(bytes: number, intent?: string): boolean {
  return bytes > (intent ? INTENT_THRESHOLD_BYTES : INDEX_THRESHOLD_BYTES);
}

/** Output that decoded mostly to replacement or control characters: bytes, not text. */
export function looksBinary(text: string): boolean {
  const sample = text.slice(0, 64 * 1024);
  if (!sample.length) return false;
  let odd = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 0xfffd || c === 0 || (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 27)) odd++;
  }
  return odd / sample.length > 0.1;
}

function headPreview(text: string): string {
  let out = text.split('\n', PREVIEW_LINES).join('\n');
  if (out.length > PREVIEW_BYTES) out = `${out.slice(0, PREVIEW_BYTES)}…`;
  return out;
}

function tailPreview(text: string): string {
  const lines = text.replace(/\n+$/, '').split('\n');
  let out = lines.slice(-PREVIEW_LINES).join('\n');
  if (out.length > PREVIEW_BYTES) out = `…${out.slice(-PREVIEW_BYTES)}`;
  return out;
}

/** "output: N bytes", and what the capture dropped when the command wrote more than it kept. */
function sizeLine(bytes: number, lines: number, produced: number | undefined): string {
  const base = `output: ${bytes} bytes, ${lines} lines`;
  if (!produced || produced <= bytes) return base;
  return `${base} kept of ${produced} bytes written — ~${formatBytes(produced - bytes)} dropped from the middle (the first and last 4 MB of each stream are kept)`;
}

/** Indexes the output and answers with a pointer, or returns undefined when it is small enough to return. */
export async function keepOutOfContext(store: OutputStore, output: LargeOutput): Promise<ToolReply | undefined> {
  const bytes = new TextEncoder().encode(output.text).length;
  if (looksBinary(output.text) && bytes > 256) {
    const text = [
      output.summary,
      `output: ${bytes} bytes that look binary (not text): not shown and not indexed`,
      'to inspect it, write it to a file and look at a slice, e.g. `… > out.bin; xxd out.bin | head -40`',
    ].join('\n');
    return {
      text,
      structured: { indexed: false, binary: true, bytes, ...(output.producedBytes ? { producedBytes: output.producedBytes } : {}) },
      saving: { rawBytes: bytes, basis: 'output kept out' },
    };
  }
  // Under the threshold it goes back verbatim, unless that would pass the cap on any reply.
  const capChars = store.config.limits.absoluteMaxTokens * store.config.estimation.charsPerToken;
  if (!exceedsThreshold(bytes, output.intent) && output.summary.length + output.text.length + 200 <= capChars) return undefined;
  const lines = output.text.split('\n').length;
  let indexed: Awaited<ReturnType<typeof tryIndex>>;
  try {
    indexed = await tryIndex(store, output);
  } catch (error) {
    return spooledReply(store, output, bytes, lines, messageOf(error));
  }
  const parts = [
    output.summary,
    `${sizeLine(bytes, lines, output.producedBytes)} — indexed as "${output.label}" (${indexed.chunks} chunks) instead of returned`,
    `tail:\n${tailPreview(output.text)}`,
    `search the rest: ctx_kb {"action":"search","query":"<what you need>","source":${JSON.stringify(output.label)}}`,
  ];
  if (indexed.best.length) parts.push(`best matches for "${output.intent}":\n${indexed.best.map((h) => `- lines ${h.lines?.join('-') ?? '?'}: ${h.snippet}`).join('\n')}`);
  const text = parts.join('\n');
  return {
    text,
    structured: { indexed: true, source: output.label, bytes, lines, chunks: indexed.chunks, matches: indexed.best, ...(output.producedBytes ? { producedBytes: output.producedBytes } : {}) },
    saving: { rawBytes: bytes, basis: 'output kept out' },
  };
}

async function tryIndex(store: OutputStore, output: LargeOutput) {
  const kb = await store.kb.get();
  const { chunks } = await indexOutput(kb, output);
  const best = output.intent ? (await kb.search({ query: output.intent, limit: 3, source: output.label })).hits : [];
  return { kb, chunks, best };
}

/** The knowledge base refused the output: head and tail inline, the whole of it in a spool file. */
function spooledReply(store: OutputStore, output: LargeOutput, bytes: number, lines: number, why: string): ToolReply {
  const spooled = spoolOutput(store.runtime.fs, path.join(store.dataDir, 'spool'), output.label, output.text);
  store.logger.log('output_spooled', { label: output.label, bytes, reason: why, file: spooled?.path ?? null });
  const parts = [
    output.summary,
    `${sizeLine(bytes, lines, output.producedBytes)} — NOT indexed: the knowledge base could not take it (${why})`,
    `head:\n${headPreview(output.text)}`,
    `tail:\n${tailPreview(output.text)}`,
    spooled
      ? `all of it is kept in ${spooled.path} (removed after ${SPOOL_MAX_AGE_MS / 3_600_000} h); look inside: ctx_run {"action":"execute","argv":["grep","-n","<word>",${JSON.stringify(spooled.path)}]}`
      : 'the spool file could not be written either (is the disk full?): only the head and tail above remain',
  ];
  return {
    text: parts.join('\n'),
    structured: { indexed: false, reason: why, bytes, lines, ...(spooled ? { spoolFile: spooled.path } : {}), ...(output.producedBytes ? { producedBytes: output.producedBytes } : {}) },
    saving: { rawBytes: bytes, basis: 'output kept out' },
  };
}
