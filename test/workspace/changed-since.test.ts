import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createExecutor } from '../../src/exec/executor.ts';
import { type ChangedSince, createChangedSince, listChangedAndSecretNames } from '../../src/workspace/changed-since.ts';
import { createSecretNameLister } from '../../src/workspace/secret-names.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) removeDir(d);
});

const exec = createExecutor(runtime);
const findIn = (root: string): ChangedSince => createChangedSince({ runtime, exec, root, skipDirs: ['node_modules'] });

describe('find\'s list of what changed since a moment', () => {
  it('names new files and the folders whose entries changed, never what hidden or skipped folders hold', async () => {
    const root = fixture({ 'top.ts': 't\n', 'src/a.ts': 'a\n', 'src/deep/x/y.ts': 'y\n', 'src/.cache/z.ts': 'z\n', 'lib/node_modules/m/i.js': 'm\n', '.hidden/h.ts': 'h\n', 'node_modules/m/i.js': 'm\n', '.env.example': 'x\n' });
    dirs.push(root);
    const listed = await findIn(root)(Date.now() - 60_000);
    assert.ok(listed, 'find ran');
    // Each entry once, whichever of the finds (one per core, each on a share of the tree) saw it.
    assert.deepEqual(listed.toSorted(), ['', '.env.example', 'lib', 'src', 'src/a.ts', 'src/deep', 'src/deep/x', 'src/deep/x/y.ts', 'top.ts']);
  });

  it('takes the moment itself with GNU find: what changed a second before it is not listed', { skip: !/GNU findutils/.test(spawnSync('find', ['--version'], { encoding: 'utf8' }).stdout ?? '') && 'not GNU find' }, async () => {
    const root = fixture({ 'old/a.ts': 'a\n' });
    dirs.push(root);
    await sleep(1100);
    const since = Date.now();
    await sleep(50);
    writeFileSync(path.join(root, 'new.ts'), 'n\n');
    // Whole minutes (-cmin) would list old/ and old/a.ts too.
    assert.deepEqual((await findIn(root)(since))?.toSorted(), ['', 'new.ts']);
  });

  it('asks another find for whole minutes (-cmin): more than changed, never less', { skip: runtime.which('find') === undefined || process.platform === 'win32' }, async () => {
    const root = fixture({ 'old/a.ts': 'a\n' });
    const bin = fixture();
    dirs.push(root, bin);
    const fake = path.join(bin, 'find');
    // A find that is not GNU's: no --version, no -newerct.
    writeFileSync(fake, `#!/bin/sh\nfor a in "$@"; do case "$a" in --version|-newerct) echo "find: illegal option" >&2; exit 1;; esac; done\nexec ${runtime.which('find')} "$@"\n`);
    chmodSync(fake, 0o755);
    const other = { ...runtime, which: (name: string) => (name === 'find' ? fake : runtime.which(name)) };
    await sleep(1100);
    const since = Date.now();
    writeFileSync(path.join(root, 'new.ts'), 'n\n');
    assert.deepEqual((await createChangedSince({ runtime: other, exec, root, skipDirs: [] })(since))?.toSorted(), ['', 'new.ts', 'old', 'old/a.ts']);
  });

  it('says it cannot tell when find fails (a root that is not there)', async () => {
    const root = fixture();
    dirs.push(root);
    assert.equal(await findIn(path.join(root, 'missing'))(Date.now() - 60_000), undefined);
  });
});

describe('one walk for what changed and the secret names', () => {
  it('lists what the changed list and the secret walk each list alone, hidden and skipped folders included', { skip: runtime.which('find') === undefined }, async () => {
    const root = fixture({
      'top.ts': 't\n',
      '.env': 'secret\n',
      'src/a.ts': 'a\n',
      'src/.gitignore': '*.log\n',
      'src/deep/x/id_rsa': 'k\n',
      'src/.cache/z.ts': 'z\n',
      'src/.cache/.npmrc': 'n\n',
      '.hidden/h.ts': 'h\n',
      '.hidden/.aws/credentials': 'c\n',
      'vendor/v/server.pem': 'p\n',
      'vendor/v/ok.c': 'o\n',
      'lib/vendor/w.c': 'w\n',
      'node_modules/m/.env': 'm\n',
      'conf/prod.tfstate': 's\n',
    });
    dirs.push(root);
    symlinkSync(path.join(root, 'src'), path.join(root, 'linked'));
    const options = { runtime, exec, root, skipDirs: ['node_modules', 'vendor'] };
    const since = Date.now() - 60_000;
    const both = listChangedAndSecretNames(options, since);
    assert.ok(both);
    const changed = await both.changed;
    assert.ok(changed, 'find ran');
    assert.deepEqual(changed.toSorted(), (await createChangedSince(options)(since))!.toSorted());
    assert.ok(changed.includes('src/.gitignore') && !changed.includes('src/.cache/z.ts') && !changed.includes('vendor/v/ok.c') && !changed.includes('lib/vendor/w.c'), changed.join(' '));
    const secrets = await both.secretNames;
    assert.ok(secrets, 'listed');
    assert.deepEqual(secrets.toSorted(), (await createSecretNameLister({ runtime, exec })(root))!.toSorted());
    assert.ok(['.env', 'src/deep/x/id_rsa', '.hidden/.aws/credentials', 'vendor/v/server.pem', 'src/.cache/.npmrc'].every((s) => secrets.includes(s)), secrets.join(' '));
    assert.ok(!secrets.some((s) => s.startsWith('node_modules/')));
  });
});

describe('one walk with a find that has no -printf (BSD)', () => {
  it('lists what changed with the finds of the changed list, and leaves the secret names to the lister', { skip: runtime.which('find') === undefined || process.platform === 'win32' }, async () => {
    const root = fixture({ 'a.ts': 'a\n', '.env': 'x\n', 'src/b.ts': 'b\n' });
    const bin = fixture();
    dirs.push(root, bin);
    const fake = path.join(bin, 'find');
    writeFileSync(fake, `#!/bin/sh\nfor a in "$@"; do [ "$a" = -printf ] && { echo "find: unknown primary or operator" >&2; exit 1; }; done\nexec ${runtime.which('find')} "$@"\n`);
    chmodSync(fake, 0o755);
    const bsd = { ...runtime, which: (name: string) => (name === 'find' ? fake : runtime.which(name)) };
    const options = { runtime: bsd, exec, root, skipDirs: [] };
    const since = Date.now() - 60_000;
    const both = listChangedAndSecretNames(options, since)!;
    assert.deepEqual((await both.changed)?.toSorted(), ['', '.env', 'a.ts', 'src', 'src/b.ts']);
    assert.equal(await both.secretNames, undefined);
  });
});
