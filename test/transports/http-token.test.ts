import assert from 'node:assert/strict';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isAppError } from '../../src/errors.ts';
import { resolveToken, TOKEN_FILE } from '../../src/transports/http-token.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

function resolveIn(dataDir: string, options: { env?: Record<string, string>; rotate?: boolean } = {}) {
  return resolveToken({ fs: runtime.fs, env: (name) => options.env?.[name], dataDir, rotate: options.rotate ?? false });
}

describe('HTTP token', () => {
  it('is generated once, saved 0600, and reused until rotated', () => {
    const dataDir = fixture();
    try {
      const first = resolveIn(dataDir);
      assert.equal(first.source, 'new');
      assert.equal(first.file, path.join(dataDir, TOKEN_FILE));
      assert.equal(readFileSync(first.file!, 'utf8').trim(), first.token);
      assert.equal(statSync(first.file!).mode & 0o777, 0o600);
      const again = resolveIn(dataDir);
      assert.deepEqual([again.source, again.token], ['saved', first.token]);
      const rotated = resolveIn(dataDir, { rotate: true });
      assert.equal(rotated.source, 'rotated');
      assert.notEqual(rotated.token, first.token);
      assert.equal(resolveIn(dataDir).token, rotated.token);
    } finally {
      removeDir(dataDir);
    }
  });

  it('replaces a saved token that others could read or that is too short, and says why', () => {
    const dataDir = fixture();
    try {
      const file = path.join(dataDir, TOKEN_FILE);
      writeFileSync(file, 'an-old-token-0123456789\n');
      chmodSync(file, 0o644);
      const open = resolveIn(dataDir);
      assert.equal(open.source, 'new');
      assert.match(open.untrusted!, /readable by others \(mode 644\)/);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      writeFileSync(file, 'short\n', { mode: 0o600 });
      const short = resolveIn(dataDir);
      assert.match(short.untrusted!, /at least 16 characters/);
      assert.notEqual(short.token, 'short');
    } finally {
      removeDir(dataDir);
    }
  });

  it('takes CTXGATE_TOKEN first, writes nothing, and refuses --rotate-token beside it', () => {
    const dataDir = fixture();
    try {
      const env = { CTXGATE_TOKEN: 'mine-0123456789abcdef' };
      assert.deepEqual(resolveIn(dataDir, { env }), { token: env.CTXGATE_TOKEN, source: 'env' });
      assert.equal(runtime.fs.statSync(path.join(dataDir, TOKEN_FILE)), undefined);
      assert.throws(
        () => resolveIn(dataDir, { env, rotate: true }),
        (e) => isAppError(e) && e.code === 'USAGE' && /CTXGATE_TOKEN is set/.test(e.message),
      );
    } finally {
      removeDir(dataDir);
    }
  });
});
