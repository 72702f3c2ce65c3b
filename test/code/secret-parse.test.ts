import assert from 'node:assert/strict';
import { linkSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { closeFixture, indexedFixture } from '../helpers/indexed.ts';
import { type TestApp, textOf } from '../helpers/app.ts';

// Issue 23, items 2 and 4, for the code index: a hard link of .env, or a file holding a private key,
// is never parsed — its names and signatures would show through locate and read.
describe('the code index and secrets under other names', () => {
  let t: TestApp;
  let root: string;
  before(async () => {
    ({ t, root } = await indexedFixture({
      '.env': 'SERVICE_TOKEN = "tok_live_0123456789abcdef"\n',
      'keys.py': `DEPLOY_KEY = """-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----"""\n`,
      'app.py': 'def serve():\n    return 1\n',
    }));
    linkSync(path.join(root, '.env'), path.join(root, 'settings.py'));
    await t.app.code.refresh();
  });
  after(() => closeFixture(t, root));

  it('parses neither a hard link of .env nor a file holding a private key, and parses the rest', async () => {
    for (const name of ['SERVICE_TOKEN', 'DEPLOY_KEY']) {
      const r = textOf(await t.call('locate', { query: name, kind: 'definition' }));
      assert.doesNotMatch(r, /tok_live|BEGIN OPENSSH|b3BlbnNzaC1rZXkt/, r);
      assert.doesNotMatch(r, /settings\.py:1 definition|keys\.py:1 definition/, r);
    }
    assert.match(textOf(await t.call('locate', { query: 'serve', kind: 'definition' })), /app\.py:1-2 definition/);
  });
});
