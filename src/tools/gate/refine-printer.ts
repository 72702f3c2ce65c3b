// The refine envelope as the model reads it: why the query was refused, where the hits are, what to try.
import type { RefineEnvelope } from '../../retrieval/gatekeeper.ts';

export function formatRefine(e: RefineEnvelope, approximate: boolean): string {
  const more = approximate ? '+' : '';
  // Counts estimated from a sample of the candidate files read (estimate.ts) carry a ~.
  const about = e.estimate ? '~' : '';
  const basis = e.estimate ? ` (estimated: ${e.estimate.read} of ${e.estimate.of} candidate files read)` : '';
  const lines = [
    `refused (${e.reason}): ${about}${e.summary.totalFound}${more} hits in ${about}${e.summary.files}${more} files${basis}, ~${e.summary.estTokens} tokens, top score ${e.summary.topScore} — refusal ${e.refusalCount}`,
    `where${e.estimate ? ' (estimated)' : ''}: ${e.distribution.map((d) => `${d.dir} ${d.hits}`).join(' · ')}`,
    `try: ${e.suggestions
      .map((s) => {
        if (s.action === 'narrow_scope') return `scope "${s.arg}" (${about}${s.wouldYield} hits)`;
        if (s.action === 'add_exclude') return `exclude ["${s.arg}"] (${about}${s.wouldYield} hits)`;
        if (s.action === 'use_regex') return s.arg ? `regex "${s.arg}"${s.wouldYield === undefined ? '' : ` (${s.wouldYield} hits)`}` : s.hint;
        if (s.action === 'use_literal') return `regex:false "${s.arg}"`;
        return 'force:true';
      })
      .join(' · ')}`,
  ];
  return lines.join('\n');
}
