// The refine envelope as the model reads it: why the query was refused, where the hits are, what to try.
import type { RefineEnvelope } from '../../retrieval/gatekeeper.ts';

export function formatRefine(e: RefineEnvelope, approximate: boolean): string {
  const more = approximate ? '+' : '';
  const lines = [
    `refused (${e.reason}): ${e.summary.totalFound}${more} hits in ${e.summary.files}${more} files, ~${e.summary.estTokens} tokens, top score ${e.summary.topScore} — refusal ${e.refusalCount}`,
    `where: ${e.distribution.map((d) => `${d.dir} ${d.hits}`).join(' · ')}`,
    `try: ${e.suggestions
      .map((s) => {
        if (s.action === 'narrow_scope') return `scope "${s.arg}" (${s.wouldYield} hits)`;
        if (s.action === 'add_exclude') return `exclude ["${s.arg}"] (${s.wouldYield} hits)`;
        if (s.action === 'use_regex') return s.arg ? `regex "${s.arg}"${s.wouldYield === undefined ? '' : ` (${s.wouldYield} hits)`}` : s.hint;
        if (s.action === 'use_literal') return `regex:false "${s.arg}"`;
        return 'force:true';
      })
      .join(' · ')}`,
  ];
  return lines.join('\n');
}
