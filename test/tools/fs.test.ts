import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { engineSetups } from '../helpers/engines.ts';
import { fixture, removeDir } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

describe('ctx_fs', () => {
  let t: TestApp;
  let root: string;
  let outside: string;

  before(() => {
    root = fixture({
      '.gitignore': 'dist/\n',
      'src/index.ts': 'export const a = 1;\n',
      'src/lib/deep/x.ts': 'x',
      [`src/lib/deep/${'a'.repeat(200)}.txt`]: 'long name',
      'src/lib/.gitignore': 'gen.ts\n',
      'src/lib/gen.ts': 'generated',
      'dist/bundle.js': 'b',
      'node_modules/pkg/index.js': 'n',
      'vendor/v.go': 'v',
      '.env': 'SECRET=1',
      'README.md': '# hi',
    });
    outside = fixture({ 'other.txt': 'o' });
    symlinkSync(path.join(root, 'src'), path.join(root, 'src-link'));
    symlinkSync(outside, path.join(root, 'out-link'));
    t = testApp(root);
  });
  after(async () => {
    await t.close();
    removeDir(root);
    removeDir(outside);
  });

  const call = async (args: Record<string, unknown>) => {
    const r = await t.call('ctx_fs', args);
    return { r, text: textOf(r), data: r.structuredContent as Record<string, unknown> };
  };

  it('ls lists one level by default, without hidden entries', async () => {
    const { data } = await call({ action: 'ls' });
    const paths = (data.entries as { path: string }[]).map((e) => e.path);
    assert.deepEqual(paths, ['README.md', 'dist', 'node_modules', 'out-link', 'src', 'src-link', 'vendor']);
  });

  it('ls goes deeper on request, shows hidden entries on request, and does not enter node_modules', async () => {
    const { data, text } = await call({ action: 'ls', depth: 3, include_hidden: true });
    const paths = (data.entries as { path: string }[]).map((e) => e.path);
    assert.ok(paths.includes('.env'));
    assert.ok(paths.includes('src/lib/deep'));
    assert.ok(!paths.includes('src/lib/deep/x.ts'), 'depth 3 stops there');
    assert.ok(paths.includes('node_modules') && !paths.some((p) => p.startsWith('node_modules/')));
    assert.match(text, /not entered: node_modules, vendor/);
  });

  it('ls says when it truncated, and refuses limits past the spec', async () => {
    const { data, text } = await call({ action: 'ls', limit: 2 });
    assert.equal(data.truncated, true);
    assert.match(text, /truncated at limit 2/);
    const over = await call({ action: 'ls', limit: 2001 });
    assert.equal(over.r.isError, true);
    assert.match(over.text, /limit: must be at most 2000/);
    const deep = await call({ action: 'ls', depth: 6 });
    assert.match(deep.text, /depth: must be 1–5/);
  });

  it('glob matches ** patterns, applies nested .gitignore files and skips node_modules/vendor', async () => {
    const { data } = await call({ action: 'glob', pattern: '**/*.ts' });
    assert.deepEqual(data.matches, ['src/index.ts', 'src/lib/deep/x.ts']);
    const js = await call({ action: 'glob', pattern: '*.js' });
    assert.deepEqual(js.data.matches, []);
    const go = await call({ action: 'glob', pattern: '*.go' });
    assert.deepEqual(go.data.matches, []);
    const inSrc = await call({ action: 'glob', pattern: '*.ts', path: 'src/lib' });
    assert.deepEqual(inSrc.data.matches, ['deep/x.ts']);
  });

  it('glob answers a many-star pattern over a long file name at once, wildcards never taking hidden files (issue 11)', async () => {
    // picomatch's backtracking RegExp took 10 s for four stars here; the server froze meanwhile.
    const none = await call({ action: 'glob', pattern: `**/${'*a'.repeat(10)}*b` });
    assert.deepEqual(none.data.matches, []);
    const long = await call({ action: 'glob', pattern: `src/**/${'*a'.repeat(10)}*.{txt,md}` });
    assert.deepEqual(long.data.matches, [`src/lib/deep/${'a'.repeat(200)}.txt`]);
    assert.deepEqual((await call({ action: 'glob', pattern: '*.md' })).data.matches, ['README.md']);
    assert.deepEqual((await call({ action: 'glob', pattern: '.env*' })).data.matches, ['.env']);
    assert.equal((((await call({ action: 'glob', pattern: '*' })).data.matches) as string[]).includes('.env'), false);
  });

  it('stat reports type, size, mode, mtime and symlink targets', async () => {
    const file = await call({ action: 'stat', path: 'src/index.ts' });
    assert.equal(file.data.type, 'file');
    assert.equal(file.data.size, 20);
    assert.match(String(file.data.mode), /^0[0-7]{3,4}$/);
    assert.equal(file.data.workdir, root);
    const link = await call({ action: 'stat', path: 'src-link' });
    assert.equal(link.data.type, 'symlink');
    assert.deepEqual(link.data.symlink, { target: path.join(root, 'src'), resolved: 'src', type: 'dir' });
  });

  it('refuses paths that escape the workdir, directly or through a symlink', async () => {
    for (const p of ['../', '/etc', 'out-link/other.txt', 'src/../../x']) {
      const { r, text } = await call({ action: 'stat', path: p });
      assert.equal(r.isError, true, p);
      assert.match(text, /OUTSIDE_WORKDIR/, p);
    }
  });

  it('rg refuses an explicit secret file, a limit over 500, and pattern plus literal text', async () => {
    assert.match((await call({ action: 'rg', pattern: 'SECRET', path: '.env' })).text, /SECRET_REFUSED/);
    assert.match((await call({ action: 'rg', pattern: 'a', limit: 501 })).text, /limit for rg is at most 500 \(got 501\)/);
    assert.match((await call({ action: 'rg', pattern: 'a', literal: 'b' })).text, /either pattern or literal/);
    assert.match((await call({ action: 'rg' })).text, /rg needs a pattern/);
  });

  it('rg accepts literal text in place of a pattern', async () => {
    const { data } = await call({ action: 'rg', literal: 'a = 1' });
    assert.equal(data.matches, 1);
  });

  it('treats option-looking paths and patterns as data', async () => {
    const { r, text } = await call({ action: 'rg', pattern: '--files', path: 'src' });
    assert.equal(r.isError, undefined, text);
    assert.equal((r.structuredContent as { matches: number }).matches, 0);
    const { text: t2 } = await call({ action: 'stat', path: '--output=/tmp/x' });
    assert.match(t2, /does not exist/);
  });
});

// Issue 23.12: one rule decides what a pattern may be, whichever engine would run it.
describe('ctx_fs rg and search judge a pattern alike on both engines', () => {
  let root: string;
  before(() => {
    root = fixture({ 'a.txt': `${'x'.repeat(2000)}\nplain a\nb\n` });
  });
  after(() => removeDir(root));

  for (const setup of engineSetups()) {
    it(`refuses what RE2 refuses, with the same words as search, on ${setup.engine}`, { skip: setup.skip }, async () => {
      const t = testApp(root, { graphBackend: 'none' }, setup.env);
      try {
        const cases: [Record<string, unknown>, Record<string, unknown>, RegExp][] = [
          [{ pattern: '(?:x{1000}){1000}' }, { pattern: '(?:x{1000}){1000}', regex: true }, /^error INVALID_ARGUMENT: pattern is not a valid regular expression \(invalid repeat count: \{1000\}\)/],
          [{ pattern: 'a\nb' }, { pattern: 'a\nb', regex: true }, /^error INVALID_ARGUMENT: pattern holds a line break: search matches within one line/],
          [{ literal: 'a\nb' }, { pattern: 'a\nb' }, /^error INVALID_ARGUMENT: pattern holds a line break/],
          [{ pattern: '(?<=a)b' }, { pattern: '(?<=a)b', regex: true }, /^error INVALID_ARGUMENT: pattern uses look-behind/],
        ];
        for (const [rgArgs, searchArgs, message] of cases) {
          const rg = await t.call('ctx_fs', { action: 'rg', ...rgArgs });
          const search = await t.call('search', searchArgs);
          assert.equal(rg.isError, true, `${JSON.stringify(rgArgs)}: ${textOf(rg)}`);
          assert.match(textOf(rg), message, JSON.stringify(rgArgs));
          assert.equal(textOf(rg).split('\n')[0], textOf(search).split('\n')[0], 'the same error from both tools');
        }
        assert.match(textOf(await t.call('ctx_fs', { action: 'rg', pattern: 'x{1000}' })), /a\.txt/, 'a pattern RE2 takes still runs');
        assert.match(textOf(await t.call('ctx_fs', { action: 'rg', pattern: 'Foo[bar' })).split('\n')[1] ?? '', /or pass literal: true/);
      } finally {
        await t.close();
      }
    });
  }
});
