// Prints hit@1 / hit@3 of knowledge-base search on the committed relevance fixture.
//   node --import tsx scripts/bench-relevance.ts
import { evaluateRelevance } from './lib/relevance.ts';

const r = await evaluateRelevance();
console.log(`relevance: ${r.queries} queries, hit@1 ${(r.hitAt1 * 100).toFixed(0)}%, hit@3 ${(r.hitAt3 * 100).toFixed(0)}%`);
for (const m of r.misses) console.log(`  miss: "${m.query}" wanted ${m.expected}; got ${m.got.join(' | ') || '(nothing)'}`);
