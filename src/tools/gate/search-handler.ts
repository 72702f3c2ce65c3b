
import { AppError, ErrorCode } from '../../errors.ts';
import { scopeTotals } from '../../retrieval/estimate.ts';
import type { ExactDispatched } from '../../retrieval/exact.ts';
import { type GateOutcome, type GateRequest, rankWords, runGated } from '../../retrieval/pipeline.ts';
import { fitToBudget } from '../../retrieval/ranking.ts';
import type { ResultItem } from '../../retrieval/types.ts';
import { dispatchWords, isQuestion } from '../../retrieval/words.ts';
import { checkGrepPattern } from '../../workspace/grep/pattern.ts';
import type { ToolCallContext, ToolReply } from '../registry.ts';
import { skippedNote } from '../skipped-note.ts';
import { passedGate, refineReply, reportIndexProgress, reportTextIndexProgress, resolveExcludes, resolveScope, tokenBudget } from './common.ts';
import { answerLines, asShown, groupByFile, hitRows, inGrepOrder, rgLineBytes } from './hit-printer.ts';
import type { SearchArgs } from './search.ts';

/** A question in words is answered with this many definitions or lines at most (max_hits overrides). */
const WORDS_SHOWN = 10;

/** What search cannot take, whatever the mode: said before anything is scanned. */
export function checkPattern(pattern: string, regex: boolean): void {
  if (pattern.trim() === '') {
    throw new AppError(ErrorCode.InvalidArgument, pattern === '' ? 'pattern is empty' : 'pattern is only whitespace', { hint: 'pass the text to find, e.g. an error message or a name' });
  }
  // The engines' own judgement (line breaks, control characters, RE2 for a regex), as ctx_fs rg gets it.
  checkGrepPattern(pattern, { literal: !regex, literalHint: 'without regex:true the pattern is searched as typed' });
}

export async function runSearch(args: SearchArgs, ctx: ToolCallContext): Promise<ToolReply> {
  const regex = args.regex ?? false;
  checkPattern(args.pattern, regex);
  await reportIndexProgress(ctx);
  await reportTextIndexProgress(ctx);
  const scope = resolveScope(ctx, args.scope);
  const exclude = resolveExcludes(ctx, scope, args.exclude);
  const req: GateRequest = { tool: 'search', query: args.pattern, regex, wholeWord: false, scope, exclude, force: args.force ?? false, maxHits: args.max_hits, signal: ctx.signal };
  if (regex) return hitsReply(ctx, args, await runGated(ctx.app, ctx.session.refusals, req), 'regex');
  // A question mark makes it plainly a question: words first. Any other text is tried exactly as
  // typed first, even when it reads like a question ("does not contain all of" is an error message).
  const question = isQuestion(args.pattern);
  const wordsFirst = question && /\?\s*$/.test(args.pattern);
  if (wordsFirst) {
    const byWords = await wordsReply(ctx, args, req, true);
    if (byWords) return byWords;
  }
  const exact = await runGated(ctx.app, ctx.session.refusals, { ...req, exact: true });
  if (exact.items.length || !exact.decision.pass) return hitsReply(ctx, args, exact, (exact.dispatched as ExactDispatched).caseFolded ? 'ignore-case' : 'exact');
  if (!wordsFirst) {
    const byWords = await wordsReply(ctx, args, req, question);
    if (byWords) return byWords;
  }
  const where = scope.relative ? ` under ${scope.relative}` : '';
  return {
    text: `no match: no line${where} holds "${args.pattern}" (in any case), and no code matches its words`,
    structured: { status: 'ok', match: 'none', totalFound: 0, returned: 0, cut: 0, results: [] },
  };
}


/** An answer of lines (exact, in another case, or a regex's), or the gate's refusal. */
function hitsReply(ctx: ToolCallContext, args: SearchArgs, outcome: GateOutcome, match: 'exact' | 'ignore-case' | 'regex'): ToolReply {
  const { dispatched, items, decision } = outcome;
  if (!decision.pass) return refineReply(decision.envelope, dispatched.capped && !dispatched.counts);
  const budget = tokenBudget(ctx, args.max_tokens);
  const cpt = ctx.app.config.estimation.charsPerToken;
  const capped = dispatched.capped;
  // Whole-scope counts when the scan collected only part of the lines: the total is still exact.
  let total = items.length;
  if (capped && dispatched.counts && !dispatched.estimate) total = scopeTotals(dispatched.counts).hits;
  const lowerBound = capped && (!dispatched.counts || dispatched.estimate !== undefined);
  const wanted = asShown(items.slice(0, args.max_hits ?? items.length));
  const fitted = fitToBudget(wanted, budget, cpt).kept;
  // The reply as sent (first line, file lines, notes) within the budget: rows are dropped from the
  // end until it fits (fitToBudget counts the rows only).
  const compose = (kept: ResultItem[]) => {
    const tokens = fitToBudget(kept, Number.MAX_SAFE_INTEGER, cpt).tokens;
    const files = groupByFile(kept).length;
    const notShown = total - kept.length;
    const lines = answerLines({ match, shown: kept.length, total, lowerBound, files, tokens, forced: decision.forced, openedAfterRefusals: decision.openedAfterRefusals }, inGrepOrder(kept));
    if (notShown > 0) {
      const budgetCut = kept.length < wanted.length;
      const byMaxHits = args.max_hits !== undefined && args.max_hits < items.length;
      const why = budgetCut ? `cut to fit ${budget} tokens; narrow with scope or raise max_tokens` : byMaxHits ? `cut by max_hits ${args.max_hits}` : 'not collected; narrow with scope or exclude';
      lines.push(`(${notShown}${lowerBound ? '+' : ''} more hits ${why})`);
    }
    if (dispatched.skipped?.length) lines.push(skippedNote(dispatched.skipped));
    return lines.join('\n');
  };
  const { kept, text } = fitText(fitted, compose, budget * cpt);
  const cut = wanted.length - kept.length;
  // What `rg -n` with this pattern and scope would have printed: every line (lines not collected
  // estimated from those that were). A refusal saves nothing; neither does an answer in words.
  const rgBytes = Math.round((rgLineBytes(items) / Math.max(1, items.length)) * total);
  return {
    text,
    ...passedGate(decision),
    ...(match !== 'ignore-case' ? { saving: { rawBytes: rgBytes, basis: 'rg -n output' as const } } : {}),
    structured: {
      status: 'ok',
      match,
      totalFound: total,
      ...(lowerBound ? { totalFoundIsLowerBound: true } : {}),
      returned: kept.length,
      cut,
      results: kept.map((h) => ({ file: h.file, line: h.line, kind: h.kind, score: h.score, text: h.text })),
    },
  };
}

/** The most of `kept` (in order) whose reply, as `compose` writes it, fits `maxChars` (one row at least). */
function fitText<T>(kept: T[], compose: (kept: T[]) => string, maxChars: number): { kept: T[]; text: string } {
  let n = kept.length;
  let text = compose(kept);
  while (n > 1 && text.length > maxChars) text = compose(kept.slice(0, --n));
  return { kept: kept.slice(0, n), text };
}

/** An answer by the query's words (the natural-language ranker), or undefined when nothing matches them. */
async function wordsReply(ctx: ToolCallContext, args: SearchArgs, req: GateRequest, question: boolean): Promise<ToolReply | undefined> {
  const limit = args.max_hits ?? WORDS_SHOWN;
  const dispatched = await dispatchWords(ctx.app, ctx.app.graph, { query: req.query, regex: false, wholeWord: false, ignoreCase: true, scope: req.scope, exclude: req.exclude, signal: req.signal }, limit);
  if (!dispatched.hits.length) return undefined;
  const items = rankWords(ctx.app, req.scope.workdir, dispatched).slice(0, limit);
  const budget = tokenBudget(ctx, args.max_tokens);
  const cpt = ctx.app.config.estimation.charsPerToken;
  const shown = asShown(items);
  const what = dispatched.from === 'code index' ? 'definitions' : 'lines';
  const lead = question ? 'a question: answered by words' : `no exact match for "${req.query}"`;
  const compose = (kept: ResultItem[]) => {
    const lines = [`${lead}; closest ${what} by words (${dispatched.terms.join(', ')}):`, ...hitRows(kept)];
    if (kept.length < shown.length) lines.push(`(${shown.length - kept.length} more cut to fit ${budget} tokens)`);
    if (dispatched.skipped?.length) lines.push(skippedNote(dispatched.skipped));
    return lines.join('\n');
  };
  const { kept, text } = fitText(fitToBudget(shown, budget, cpt).kept, compose, budget * cpt);
  const cut = shown.length - kept.length;
  return {
    text,
    structured: { status: 'ok', match: 'words', totalFound: items.length, returned: kept.length, cut, results: kept.map((h: ResultItem) => ({ file: h.file, line: h.line, kind: h.kind, score: h.score, text: h.text })) },
  };
}
