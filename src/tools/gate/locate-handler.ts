
import { expandBlock } from '../../retrieval/block.ts';
import type { Kind } from '../../retrieval/kinds.ts';
import { distribution } from '../../retrieval/gatekeeper.ts';
import { runGated } from '../../retrieval/pipeline.ts';
import { fitToBudget } from '../../retrieval/ranking.ts';
import type { ToolCallContext, ToolReply } from '../registry.ts';
import { skippedNote } from '../skipped-note.ts';
import { partialNote } from './other-definitions.ts';
import { lineReader, passedGate, refineReply, reportIndexProgress, reportTextIndexProgress, resolveScope, tokenBudget } from './common.ts';
import type { LocateArgs as Args } from './locate.ts';

const KINDS: Record<'definition' | 'reference' | 'any', Kind[] | undefined> = {
  definition: ['definition'],
  reference: ['call', 'reference'],
  any: undefined,
};

/** Overloads and repeated declarations of one symbol close together in a file are one answer. */
function collapseOverloads<T extends { file: string; line: number; kind: string }>(items: T[]): T[] {
  const kept: T[] = [];
  for (const item of items) {
    // Definitions from the code index arrive with their overloads already folded in.
    const twin = item.kind === 'definition' && !('def' in item && item.def) && kept.some((k) => k.kind === 'definition' && k.file === item.file && Math.abs(k.line - item.line) <= 50);
    if (!twin) kept.push(item);
  }
  return kept;
}

interface LocateResult {
  file: string;
  line: number;
  endLine: number;
  kind: string;
  score: number;
  text: string;
  overloads?: number;
  local?: string;
  declarations?: { file: string; line: number }[];
}

const DECLARED_SHOWN = 5;

/** A result's line; a C or C++ body's prototypes and `extern` declarations follow it as "declared in" lines. */
function resultLines(r: LocateResult): string[] {
  const range = `${r.file}:${r.line}${r.endLine > r.line ? `-${r.endLine}` : ''}`;
  // A local declaration is labelled as one, with the definition it sits in (`parameter of escape: s`).
  if (r.local) return [`${range} local ${r.score}  ${r.text.slice(0, 80)}`];
  const head = `${range} ${r.kind} ${r.score}${r.kind === 'definition' ? `  ${r.text.slice(0, 60)}${r.overloads ? ` (+${r.overloads} overloads)` : ''}` : ''}`;
  const declared = (r.declarations ?? []).slice(0, DECLARED_SHOWN).map((d) => `    declared in ${d.file}:${d.line}`);
  const more = (r.declarations?.length ?? 0) > DECLARED_SHOWN ? [`    … declared in ${r.declarations!.length - DECLARED_SHOWN} more places`] : [];
  return [head, ...declared, ...more];
}


export async function runLocate(args: Args, ctx: ToolCallContext): Promise<ToolReply> {
  await reportIndexProgress(ctx);
  await reportTextIndexProgress(ctx);
  const scope = resolveScope(ctx, args.scope);
  const { dispatched, items, decision } = await runGated(ctx.app, ctx.session.refusals, {
    tool: 'locate',
    query: args.query,
    regex: false,
    wholeWord: true,
    scope,
    exclude: [],
    force: false,
    kinds: KINDS[args.kind ?? 'any'],
    // locate answers with a few ranked paths, never bodies: only a weak best match is refused.
    relevanceOnly: true,
    // Asked for a name with no kind, the definition is what is wanted first (uses follow).
    definitionsFirst: !args.kind || args.kind === 'any',
    signal: ctx.signal,
  });
  if (!decision.pass) return refineReply(decision.envelope, dispatched.capped && !dispatched.counts);
  const max = args.max_results ?? 10;
  const { kept } = fitToBudget(collapseOverloads(items).slice(0, max), tokenBudget(ctx, undefined), ctx.app.config.estimation.charsPerToken);
  const results: LocateResult[] = [];
  const linesOf = lineReader(ctx, scope.workdir);
  for (const item of kept) {
    let end = item.line;
    if (item.def) end = Math.max(item.line, item.def.end);
    else if (item.kind === 'definition') {
      const lines = await linesOf(item.file);
      const block = expandBlock(lines, item.line, item.file);
      end = Math.max(item.line, block.end);
    }
    results.push({
      file: item.file,
      line: item.line,
      endLine: end,
      kind: item.kind,
      score: item.score,
      text: item.text.trim().slice(0, 100),
      ...(item.def?.overloads ? { overloads: item.def.overloads } : {}),
      ...(item.def?.local ? { local: item.def.local } : {}),
      ...(item.def?.declarations ? { declarations: item.def.declarations } : {}),
    });
  }
  const spread = items.length > max ? ` — spread: ${distribution(items, scope.relative).slice(0, 5).map((d) => `${d.dir} ${d.hits}`).join(' · ')}` : '';
  // Before the first build, a common name's declarations come from the files that show one only.
  const lowerBound = dispatched.capped || dispatched.partial === true;
  const head = results.length ? `${results.length} of ${items.length}${lowerBound ? '+' : ''} for ${args.query}${decision.openedAfterRefusals ? ' (gate opened after repeated refusals)' : ''}${spread}` : `nothing found for ${args.query}`;
  const skipped = dispatched.skipped?.length ? [skippedNote(dispatched.skipped)] : [];
  const partial = dispatched.partial ? [partialNote(args.query)] : [];
  const text = [head, ...results.flatMap(resultLines), ...skipped, ...partial].join('\n');
  return { text, structured: { status: 'ok', query: args.query, totalFound: items.length, ...(lowerBound ? { lowerBound: true } : {}), results }, ...passedGate(decision) };
}
