import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateRelevance } from '../../scripts/lib/relevance.ts';
import { kbBackends } from '../helpers/kb-backends.ts';

for (const backend of await kbBackends('the relevance test on Postgres')) {
  describe(`knowledge-base relevance on ${backend.name}`, { skip: backend.skip }, () => {
    it('puts the answering chunk first for most fixture queries and in the top 3 for nearly all', async () => {
      const r = await evaluateRelevance(undefined, backend.url);
      assert.ok(r.hitAt1 >= 0.85, `hit@1 ${r.hitAt1}: ${JSON.stringify(r.misses, null, 1)}`);
      assert.ok(r.hitAt3 >= 0.95, `hit@3 ${r.hitAt3}: ${JSON.stringify(r.misses, null, 1)}`);
    });
  });
}
