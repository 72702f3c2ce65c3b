// Prints hit@1 / hit@3 of knowledge-base search on the committed relevance fixture.
//   node --import tsx scripts/bench-relevance.ts [--postgres URL]
// With --postgres, the same fixture and queries on the Postgres store (a fresh project key, removed after).
import { evaluateRelevance } from './lib/relevance.ts';

const flag = process.argv.indexOf('--postgres');
const url = flag >= 0 ? process.argv[flag + 1] : undefined;
if (flag >= 0 && !url) throw new Error('--postgres needs a URL: postgres://USER@HOST:PORT/DB');
const r = await evaluateRelevance(undefined, url);
console.log(`relevance${url ? ' (postgres)' : ' (sqlite)'}: ${r.queries} queries, hit@1 ${(r.hitAt1 * 100).toFixed(0)}%, hit@3 ${(r.hitAt3 * 100).toFixed(0)}%`);
for (const m of r.misses) console.log(`  miss: "${m.query}" wanted ${m.expected}; got ${m.got.join(' | ') || '(nothing)'}`);
