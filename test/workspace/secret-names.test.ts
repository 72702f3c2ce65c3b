// The secret identities' walk done by find (workspace/secret-names.ts): the same identities as the
// walk in this thread, whatever the names' case, copies, folders, links and skipped folders.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createExecutor } from '../../src/exec/executor.ts';
import { knownSecrets, listSecretNamesWith } from '../../src/security/secret-identities.ts';
import { createSecretNameLister, secretNameExpression } from '../../src/workspace/secret-names.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) removeDir(d);
});

const exec = createExecutor(runtime);

/** Each secret's path by identity, as the walk (no lister) or find (the lister) found them. */
async function holders(root: string, byFind: boolean): Promise<Map<string, string>> {
  const was = listSecretNamesWith(byFind ? createSecretNameLister({ runtime, exec }) : undefined);
  try {
    // A later moment than any walk before: collected anew.
    return new Map((await knownSecrets(runtime.fs, { dirs: [root] }, Date.now() + 1)).holders);
  } finally {
    listSecretNamesWith(was);
  }
}

describe('the secret identities listed by find', () => {
  it('finds what the walk finds: names in any case, backup and editor copies, secret folders, links named like secrets, non-ASCII names; nothing under .git or node_modules', { skip: runtime.which('find') === undefined }, async () => {
    const root = fixture({
      '.ENV': 'a\n',
      'src/ok.ts': 'b\n',
      'src/Server.PEM.orig': 'c\n',
      'src/.#id_ed25519': 'd\n',
      'deep/er/.id_rsa.swp': 'e\n',
      'conf/.AWS/credentials': 'f\n',
      'conf/.docker/config.json': 'g\n',
      'conf/config.json': 'not secret\n',
      'deploy/prod.tfstate.backup': 'h\n',
      '.hidden/.npmrc': 'i\n',
      'node_modules/m/.env': 'j\n',
      '.git/.env': 'k\n',
      'target.txt': 'l\n',
      'src/kelvin.txt': 'm\n',
    });
    dirs.push(root);
    // The Kelvin sign lowercases to k: "server.\u212Aey" is judged "server.key".
    writeFileSync(path.join(root, 'src', 'server.\u212Aey'), 'n\n');
    symlinkSync(path.join(root, 'target.txt'), path.join(root, 'src', 'id_rsa'));
    mkdirSync(path.join(root, 'links'));
    linkSync(path.join(root, '.ENV'), path.join(root, 'links', 'harmless.txt'));
    const walked = await holders(root, false);
    const found = await holders(root, true);
    assert.deepEqual([...found.values()].sort(), [...walked.values()].sort());
    assert.deepEqual(
      [...found.values()].sort(),
      ['.ENV', '.hidden/.npmrc', 'conf/.AWS/credentials', 'conf/.docker/config.json', 'deep/er/.id_rsa.swp', 'deploy/prod.tfstate.backup', 'src/.#id_ed25519', 'src/Server.PEM.orig', 'src/id_rsa', 'src/server.\u212Aey'],
    );
    assert.deepEqual([...found.keys()].sort(), [...walked.keys()].sort(), 'the same identities (the link named like a secret: its target)');
    // GNU find's one regex and the portable patterns list the same entries (another find takes the portable ones only).
    if (!/GNU/.test(spawnSync('find', ['--version'], { encoding: 'utf8' }).stdout ?? '')) return;
    const listed = (flavour: 'gnu' | 'posix') => {
      const r = spawnSync('find', ['.', ...secretNameExpression(flavour)], { cwd: root, env: { ...process.env, LC_ALL: 'C' }, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout.split('\0').filter(Boolean).sort();
    };
    assert.deepEqual(listed('gnu'), listed('posix'));
    assert.ok(listed('gnu').includes('./links/harmless.txt') === false && listed('gnu').includes('./.ENV'));
  });

  it('leaves a workdir find cannot read whole to the walk', { skip: runtime.which('find') === undefined }, async () => {
    const lister = createSecretNameLister({ runtime, exec });
    const root = fixture({ '.env': 'a\n' });
    dirs.push(root);
    assert.equal(await lister(path.join(root, 'missing')), undefined);
    assert.deepEqual(await lister(root), ['.env']);
  });
});
