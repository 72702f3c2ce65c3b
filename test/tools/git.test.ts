import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixture, removeDir } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' },
  });
}

/** A fresh repository on branch main holding `files`, all committed as one commit. */
function committedRepo(files: Record<string, string>, message: string): string {
  const repo = fixture(files);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', message);
  return repo;
}

describe('ctx_git', () => {
  let repo: string;
  let t: TestApp;
  const call = async (args: Record<string, unknown>) => {
    const r = await t.call('ctx_git', args);
    return { r, text: textOf(r), data: r.structuredContent as Record<string, unknown> };
  };

  before(() => {
    repo = committedRepo({ 'src/a.ts': 'one\n', 'old.txt': 'rename me\n', 'big.txt': '' }, 'first commit');
    for (let i = 2; i <= 5; i++) {
      writeFileSync(path.join(repo, 'src/a.ts'), `v${i}\n`);
      git(repo, 'commit', '-q', '-am', `change ${i}`, '-m', `body of ${i}`);
    }
    writeFileSync(path.join(repo, 'src/a.ts'), 'v6 unstaged\n');
    git(repo, 'mv', 'old.txt', 'new.txt');
    writeFileSync(path.join(repo, 'untracked.md'), 'u\n');
    // Repository config that would run programs or leak into replies if honoured.
    git(repo, 'config', 'diff.external', `sh -c "touch ${repo}/external-diff-ran"`);
    git(repo, 'config', 'core.pager', `sh -c "touch ${repo}/pager-ran"`);
    git(repo, 'config', 'log.showSignature', 'true');
    t = testApp(repo, {}, { GIT_DIR: '/nonexistent', GIT_WORK_TREE: '/nonexistent' });
  });
  after(async () => {
    await t.close();
    removeDir(repo);
  });

  it('status gives the branch and porcelain entries, renames included', async () => {
    const { data, text } = await call({ action: 'status' });
    assert.equal(data.branch, 'main');
    assert.deepEqual(data.entries, [
      { xy: 'R ', path: 'new.txt', from: 'old.txt' },
      { xy: ' M', path: 'src/a.ts' },
      { xy: '??', path: 'untracked.md' },
    ]);
    assert.match(text, /^## main\nR {2}old\.txt -> new\.txt\n M src\/a\.ts\n\?\? untracked\.md$/);
  });

  it('diff shows unstaged changes, staged with staged:true, a summary with stat:true', async () => {
    assert.match((await call({ action: 'diff' })).text, /-v5\n\+v6 unstaged/);
    assert.match((await call({ action: 'diff', staged: true })).text, /rename from old\.txt/);
    assert.match((await call({ action: 'diff', stat: true })).text, /src\/a\.ts \| 2 \+-/);
    assert.match((await call({ action: 'diff', path: 'new.txt' })).text, /^no changes in new\.txt$/);
    assert.equal(existsSync(path.join(repo, 'external-diff-ran')), false, 'external diff never runs');
    assert.equal(existsSync(path.join(repo, 'pager-ran')), false, 'pager never runs');
  });

  it('log lists commits newest first, n of them, one line each by default', async () => {
    const { data, text } = await call({ action: 'log', n: 2 });
    const commits = data.commits as { subject: string; author: string }[];
    assert.deepEqual(commits.map((c) => c.subject), ['change 5', 'change 4']);
    assert.match(text, /^[0-9a-f]{7,} \d{4}-\d\d-\d\d Ada: change 5$/m);
    const full = await call({ action: 'log', n: 1, oneline: false });
    assert.match(full.text, /^commit [0-9a-f]{40}\nAuthor: Ada <ada@example\.com>/);
    assert.match(full.text, /body of 5/);
    assert.doesNotMatch(full.text, /gpg|Signature/i);
    const forFile = await call({ action: 'log', path: 'old.txt' });
    assert.deepEqual((forFile.data.commits as { subject: string }[]).map((c) => c.subject), ['first commit']);
  });

  it('refuses n over 100 and paths outside the workdir', async () => {
    assert.match((await call({ action: 'log', n: 101 })).text, /n: must be at most 100/);
    assert.match((await call({ action: 'diff', path: '../elsewhere' })).text, /OUTSIDE_WORKDIR/);
    assert.match((await call({ action: 'status', cwd: '/tmp' })).text, /OUTSIDE_WORKDIR/);
  });

  it('passes option-looking paths after --, so they stay paths', async () => {
    const { r, text } = await call({ action: 'diff', path: '--output=pwned.txt' });
    assert.equal(r.isError, undefined, text);
    assert.equal(existsSync(path.join(repo, 'pwned.txt')), false);
    const log = await call({ action: 'log', path: '--all' });
    assert.deepEqual(log.data.commits, []);
  });

  it('cuts a huge diff at 2000 lines and says so', async () => {
    writeFileSync(path.join(repo, 'big.txt'), Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n'));
    const { data, text } = await call({ action: 'diff', path: 'big.txt' });
    assert.equal(data.truncated, true);
    assert.ok((data.lines as number) <= 2000);
    assert.match(text, /diff truncated at 2000 lines/);
    git(repo, 'checkout', '--', 'big.txt');
  });
});

describe('ctx_git outside a repository', () => {
  it('says when the workdir is not a repository', async () => {
    const dir = fixture({ 'a.txt': 'x' });
    const t = testApp(dir);
    const text = textOf(await t.call('ctx_git', { action: 'status' }));
    assert.match(text, /not inside a git repository/);
    await t.close();
    removeDir(dir);
  });

  it('says when the workdir only lies inside a parent repository', async () => {
    const parent = fixture({ 'sub/a.txt': 'x' });
    git(parent, 'init', '-q');
    const t = testApp(path.join(parent, 'sub'));
    const text = textOf(await t.call('ctx_git', { action: 'log' }));
    assert.match(text, /inside the repository at .*which reaches outside the workdirs/);
    await t.close();
    removeDir(parent);
  });
});

describe('ctx_git output policy', () => {
  it('indexes a diff over 100 KB into the knowledge base and answers with a pointer', async () => {
    const repo = committedRepo({ 'big.txt': 'start\n' }, 'init');
    writeFileSync(path.join(repo, 'big.txt'), Array.from({ length: 1500 }, (_, i) => `changed line ${i} ${'payload '.repeat(12)}`).join('\n'));
    const t = testApp(repo);
    const r = await t.call('ctx_git', { action: 'diff' });
    const text = textOf(r);
    assert.match(text, /indexed as "git diff" \(\d+ chunks\) instead of returned/);
    assert.ok(text.length < 5000, `reply stays small: ${text.length}`);
    assert.match(text, /ctx_kb \{"action":"search","query":"<what you need>","source":"git diff"\}/);
    const found = textOf(await t.call('ctx_kb', { action: 'search', query: 'changed line 1234', source: 'git diff' }));
    assert.match(found, /changed line 1234/);
    await t.close();
    removeDir(repo);
  });
});

describe('ctx_git and secret files', () => {
  it('leaves tracked secret-like files out of a diff, from any folder, and refuses one named as the path', async () => {
    const repo = committedRepo({ '.env': 'API_TOKEN=zzold\n', 'app/.ssh/config': 'Host zzold\n', 'app/main.ts': 'one\n' }, 'init');
    writeFileSync(path.join(repo, '.env'), 'API_TOKEN=zznew\n');
    writeFileSync(path.join(repo, 'app/.ssh/config'), 'Host zznew\n');
    writeFileSync(path.join(repo, 'app/main.ts'), 'two\n');
    const t = testApp(repo);
    try {
      for (const args of [{}, { cwd: 'app' }, { path: 'app' }, { stat: true }]) {
        const text = textOf(await t.call('ctx_git', { action: 'diff', ...args }));
        assert.match(text, /main\.ts/, JSON.stringify(args));
        // Named only in the note that says they were left out.
        const [shown = '', note = ''] = text.split('\n(left out ');
        assert.doesNotMatch(shown, /zz(old|new)|\.env|\.ssh/, JSON.stringify(args));
        assert.doesNotMatch(note, /zz(old|new)/, JSON.stringify(args));
        assert.match(note, /app\/\.ssh\/config \(anything under a \.ssh\/ folder\)/, JSON.stringify(args));
      }
      const named = textOf(await t.call('ctx_git', { action: 'diff', path: '.env' }));
      assert.match(named, /^error SECRET_REFUSED: '\.env' is treated as a secret \(rule: \.env and \.env\.\* files\), so it is not diffed/);
    } finally {
      await t.close();
      removeDir(repo);
    }
  });
});

// Issue 11: a repository's config is data; nothing it names may run. Each program appends its name
// to a marker file (and passes its input through, so a diff would still look right if it ran).
describe('ctx_git starts no program named by the repository', () => {
  let repo: string;
  let tools: string;
  let marker: string;
  let t: TestApp;
  const call = async (args: Record<string, unknown>) => textOf(await t.call('ctx_git', args));
  const ran = () => (existsSync(marker) ? readFileSync(marker, 'utf8').trim().split('\n') : []);
  const program = (name: string) => {
    const file = path.join(tools, name);
    // git cuts config values at an unquoted ; or #: a script keeps the command plain.
    writeFileSync(file, `#!/bin/sh\necho ${name} >> ${marker}\nexec cat\n`);
    chmodSync(file, 0o755);
    return file;
  };
  /** Same-size edits with an old mtime: git must read the file (through its filter) to see the change. */
  const edit = (rel: string, content: string) => {
    writeFileSync(path.join(repo, rel), content);
    utimesSync(path.join(repo, rel), 946684800, 946684800);
  };

  before(() => {
    tools = fixture();
    marker = path.join(tools, 'marker');
    repo = committedRepo({
      'a.md': 'old\n',
      'b.proc': 'old\n',
      'c.eq': 'old\n',
      'd.inc': 'old\n',
      'e.tc': 'old\n',
      'same.txt': 'same\n',
      '.gitattributes': '*.md filter=evil\n*.proc filter=proc\n*.eq filter=a=b\n*.inc filter=inc\n*.tc diff=tc\n',
    }, 'first');
    git(repo, 'config', 'filter.evil.clean', program('clean'));
    git(repo, 'config', 'filter.evil.smudge', program('smudge'));
    git(repo, 'config', 'filter.evil.required', 'true');
    git(repo, 'config', 'filter.proc.process', program('process'));
    // A driver name with "=" in it: `-c filter.a=b.clean=` would set filter.a to "b.clean=".
    appendFileSync(path.join(repo, '.git/config'), `[filter "a=b"]\n\tclean = ${program('equals')}\n`);
    // Config from an included file counts as much as .git/config.
    writeFileSync(path.join(tools, 'included.cfg'), `[filter "inc"]\n\tclean = ${program('included')}\n`);
    git(repo, 'config', 'include.path', path.join(tools, 'included.cfg'));
    git(repo, 'config', 'diff.tc.textconv', program('textconv'));
    git(repo, 'config', 'diff.tc.command', program('diffcommand'));
    git(repo, 'config', 'core.fsmonitor', program('fsmonitor'));
    git(repo, 'config', 'core.hooksPath', path.join(tools, 'hooks'));
    mkdirSync(path.join(tools, 'hooks'));
    for (const hook of ['post-index-change', 'post-checkout', 'reference-transaction']) {
      writeFileSync(path.join(tools, 'hooks', hook), `#!/bin/sh\necho ${hook} >> ${marker}\n`);
      chmodSync(path.join(tools, 'hooks', hook), 0o755);
    }
    for (const f of ['a.md', 'b.proc', 'c.eq', 'd.inc', 'e.tc']) edit(f, 'new\n');
    // Touched, not changed: git diff refreshes its index entry, which writes the index (a hook event).
    edit('same.txt', 'same\n');
    t = testApp(repo);
  });
  after(async () => {
    await t.close();
    removeDir(repo);
    removeDir(tools);
  });

  it('status sees the changed files without running their filters or the fsmonitor', async () => {
    const text = await call({ action: 'status' });
    assert.match(text, / M a\.md\n M b\.proc\n M c\.eq\n M d\.inc\n M e\.tc/);
    assert.deepEqual(ran(), []);
    assert.match(text, /repository filters a=b, evil, inc, proc not run/);
  });

  it('diff shows the changes without running filters, textconv, external diffs or hooks', async () => {
    const text = await call({ action: 'diff' });
    for (const f of ['a.md', 'b.proc', 'c.eq', 'd.inc', 'e.tc']) assert.match(text, new RegExp(`\\+\\+\\+ b/${f.replace('.', '\\.')}\\n@@ -1 \\+1 @@\\n-old\\n\\+new`));
    assert.match(await call({ action: 'diff', path: 'a.md' }), /-old\n\+new/);
    assert.match(await call({ action: 'diff', stat: true }), /5 files changed/);
    assert.deepEqual(ran(), []);
  });

  it('staged diffs and log run nothing either', async () => {
    // Staged by the test with every program turned off, then touched again so git must re-read it.
    git(repo, '-c', 'filter.evil.clean=cat', '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', 'add', 'a.md');
    edit('a.md', 'new\n');
    assert.match(await call({ action: 'diff', staged: true }), /\+\+\+ b\/a\.md\n@@ -1 \+1 @@\n-old\n\+new/);
    assert.match(await call({ action: 'diff', staged: true, path: 'a.md' }), /-old\n\+new/);
    assert.match(await call({ action: 'diff', path: 'e.tc' }), /-old\n\+new/);
    assert.match(await call({ action: 'log', oneline: false }), /first/);
    assert.match(await call({ action: 'log', path: 'a.md' }), /first/);
    assert.deepEqual(ran(), []);
  });
});

describe('ctx_git and the rest of a repository', () => {
  it('never lets a partial clone fetch a missing object through a command its config names', async () => {
    const tools = fixture();
    const marker = path.join(tools, 'marker');
    const repo = committedRepo({ 'a.txt': 'old\n' }, 'first');
    git(repo, 'config', 'core.repositoryformatversion', '1');
    git(repo, 'config', 'extensions.partialClone', 'origin');
    git(repo, 'config', 'remote.origin.promisor', 'true');
    git(repo, 'config', 'remote.origin.url', `ext::sh -c echo% fetched>>${marker}`);
    git(repo, 'config', 'protocol.ext.allow', 'always');
    // The index names a blob the repository does not have: reading it asks the promisor remote.
    git(repo, 'update-index', '--cacheinfo', `100644,${'1'.repeat(40)},a.txt`);
    writeFileSync(path.join(repo, 'a.txt'), 'new\n');
    const t = testApp(repo);
    await t.call('ctx_git', { action: 'diff' });
    await t.call('ctx_git', { action: 'diff', staged: true });
    await t.call('ctx_git', { action: 'status' });
    assert.equal(existsSync(marker), false, 'the ext:: command never ran');
    await t.close();
    removeDir(repo);
    removeDir(tools);
  });

  it('refuses a repository whose config puts its working tree outside the workdir', async () => {
    const outside = fixture({ 'x.txt': 'outside secret\n' });
    const repo = fixture();
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'config', 'core.worktree', outside);
    git(repo, 'add', 'x.txt');
    git(repo, 'commit', '-q', '-m', 'first');
    writeFileSync(path.join(outside, 'x.txt'), 'changed outside\n');
    const t = testApp(repo);
    for (const action of ['diff', 'status', 'log']) {
      const text = textOf(await t.call('ctx_git', { action }));
      assert.match(text, /OUTSIDE_WORKDIR.*working tree is .* outside the workdirs \(core\.worktree/);
      assert.doesNotMatch(text, /outside secret|changed outside|x\.txt/);
    }
    await t.close();
    removeDir(repo);
    removeDir(outside);
  });

  // Issue 23.6: git reads objects wherever the repository's links point.
  describe('refuses a repository whose data lies outside the workdir', () => {
    const secret = 'outside-secret-7a1c';
    let outside: string;
    before(() => {
      outside = committedRepo({ 'x.txt': `${secret}\n` }, `${secret} subject`);
    });
    after(() => removeDir(outside));

    const refusedEverywhere = async (repo: string, why: RegExp) => {
      const t = testApp(repo);
      for (const action of ['diff', 'status', 'log']) {
        const text = textOf(await t.call('ctx_git', { action }));
        assert.match(text, /OUTSIDE_WORKDIR.*keeps its data outside the workdirs/, action);
        assert.match(text, why, action);
        assert.doesNotMatch(text, new RegExp(secret), action);
      }
      await t.close();
      removeDir(repo);
    };

    it('through a .git file naming a git dir elsewhere', async () => {
      const repo = fixture({ '.git': `gitdir: ${path.join(outside, '.git')}\n`, 'x.txt': 'changed\n' });
      await refusedEverywhere(repo, /the git dir is .*\.git/);
    });

    it('through a .git symlink', async () => {
      const repo = fixture({ 'x.txt': 'changed\n' });
      symlinkSync(path.join(outside, '.git'), path.join(repo, '.git'));
      await refusedEverywhere(repo, /the git dir is /);
    });

    it('through objects/info/alternates, relative or absolute', async () => {
      for (const relative of [false, true]) {
        const repo = fixture({ 'x.txt': `${secret}\n` });
        git(repo, 'init', '-q', '-b', 'main');
        const lent = path.join(outside, '.git/objects');
        const entry = relative ? path.relative(path.join(repo, '.git/objects'), lent) : lent;
        writeFileSync(path.join(repo, '.git/objects/info/alternates'), `# borrowed\n${entry}\n`);
        // The borrowed history, as `git clone --shared` would leave it.
        writeFileSync(path.join(repo, '.git/refs/heads/main'), git(outside, 'rev-parse', 'HEAD'));
        await refusedEverywhere(repo, /an alternate object store \(objects\/info\/alternates\) is /);
      }
    });

    it('through an objects folder that is a symlink', async () => {
      const repo = fixture({ 'x.txt': 'changed\n' });
      git(repo, 'init', '-q', '-b', 'main');
      rmSync(path.join(repo, '.git/objects'), { recursive: true });
      symlinkSync(path.join(outside, '.git/objects'), path.join(repo, '.git/objects'));
      writeFileSync(path.join(repo, '.git/refs/heads/main'), git(outside, 'rev-parse', 'HEAD'));
      await refusedEverywhere(repo, /the object store is /);
    });

    it('but reads a repository whose alternates stay inside the workdir', async () => {
      const project = fixture();
      const lender = path.join(project, 'lender');
      mkdirSync(lender);
      writeFileSync(path.join(lender, 'l.txt'), 'lent\n');
      git(lender, 'init', '-q', '-b', 'main');
      git(lender, 'add', '.');
      git(lender, 'commit', '-q', '-m', 'lent commit');
      const repo = path.join(project, 'borrower');
      git(project, 'clone', '-q', '--shared', lender, repo);
      const t = testApp(project);
      const text = textOf(await t.call('ctx_git', { action: 'log', cwd: 'borrower' }));
      assert.match(text, /Ada: lent commit/);
      await t.close();
      removeDir(project);
    });
  });

  it('does not run git inside a submodule, where the submodule config would pick the programs', async () => {
    const tools = fixture();
    const marker = path.join(tools, 'marker');
    writeFileSync(path.join(tools, 'clean'), `#!/bin/sh\necho clean >> ${marker}\nexec cat\n`);
    chmodSync(path.join(tools, 'clean'), 0o755);
    const inner = committedRepo({ 's.md': 'old\n', '.gitattributes': '*.md filter=sub\n', '.env': 'TOKEN=old\n' }, 'inner');
    const repo = committedRepo({ 'top.txt': 'top\n' }, 'top');
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', inner, 'sub');
    git(repo, 'commit', '-q', '-m', 'sub');
    git(path.join(repo, 'sub'), 'config', 'filter.sub.clean', path.join(tools, 'clean'));
    git(repo, 'config', 'diff.submodule', 'diff');
    // A new submodule commit: shown inline (diff.submodule=diff), its .env would skip our exclusions.
    writeFileSync(path.join(repo, 'sub/.env'), 'TOKEN=hunter2\n');
    git(path.join(repo, 'sub'), '-c', 'filter.sub.clean=cat', 'commit', '-q', '-am', 'secret');
    writeFileSync(path.join(repo, 'sub/s.md'), 'new\n');
    utimesSync(path.join(repo, 'sub/s.md'), 946684800, 946684800);
    writeFileSync(path.join(repo, 'top.txt'), 'changed\n');
    const t = testApp(repo);
    assert.match(textOf(await t.call('ctx_git', { action: 'status' })), / M top\.txt/);
    const diff = textOf(await t.call('ctx_git', { action: 'diff' }));
    assert.match(diff, /-top\n\+changed/);
    assert.match(diff, /-Subproject commit [0-9a-f]{40}\n\+Subproject commit [0-9a-f]{40}\n/);
    assert.doesNotMatch(diff, /hunter2/, "the submodule's own diff is not shown");
    assert.equal(existsSync(marker), false, "the submodule's filter never ran");
    await t.close();
    removeDir(repo);
    removeDir(inner);
    removeDir(tools);
  });
});

// Issue 11: a committed secret file's changes never appear in a diff, nor in the knowledge base.
describe('ctx_git diff and secret-like files', () => {
  let repo: string;
  let t: TestApp;
  const call = async (args: Record<string, unknown>) => {
    const r = await t.call('ctx_git', args);
    return { text: textOf(r), data: r.structuredContent as Record<string, unknown> };
  };

  before(() => {
    repo = committedRepo({
      '.env': 'TOKEN=old-token\n',
      'config/.aws/credentials': 'aws_secret=old-aws\n',
      'keys/server.pem': 'old-pem\n',
      'keys/move.key': 'moved-key\n',
      'app.txt': 'old app\n',
      'sub/notes.txt': 'old notes\n',
    }, 'first');
    writeFileSync(path.join(repo, '.env'), 'TOKEN=hunter2-token\n');
    writeFileSync(path.join(repo, 'config/.aws/credentials'), 'aws_secret=hunter2-aws\n');
    writeFileSync(path.join(repo, 'keys/server.pem'), 'hunter2-pem\n');
    writeFileSync(path.join(repo, 'app.txt'), 'new app\n');
    writeFileSync(path.join(repo, 'sub/notes.txt'), 'new notes\n');
    t = testApp(repo);
  });
  after(async () => {
    await t.close();
    removeDir(repo);
  });

  it('shows the other changes and names the secret-like files it left out', async () => {
    const { text, data } = await call({ action: 'diff' });
    assert.match(text, /-old app\n\+new app/);
    assert.match(text, /-old notes\n\+new notes/);
    assert.doesNotMatch(text, /hunter2|old-token|old-aws|old-pem|diff --git a\/\.env/);
    assert.match(text, /left out 3 secret-like files \(never shown or indexed\): \.env \(\.env and \.env\.\* files\), config\/\.aws\/credentials \(anything under a \.aws\/ folder\), keys\/server\.pem/);
    assert.equal((data.omitted as unknown[]).length, 3);
    const stat = await call({ action: 'diff', stat: true });
    assert.match(stat.text, /2 files changed/);
    assert.doesNotMatch(stat.text, /\.env \||credentials \||server\.pem \|/);
  });

  it('leaves them out from any folder, for a path, and when staged', async () => {
    const fromSub = await call({ action: 'diff', cwd: 'sub' });
    assert.match(fromSub.text, /\+new app/);
    assert.doesNotMatch(fromSub.text, /hunter2/);
    const folder = await call({ action: 'diff', path: 'config' });
    assert.match(folder.text, /^nothing to show: every changed file is secret-like\n\(left out 1 secret-like file .*: config\/\.aws\/credentials \(anything under a \.aws\/ folder\)\)$/);
    git(repo, 'add', '.env', 'app.txt');
    const staged = await call({ action: 'diff', staged: true });
    assert.match(staged.text, /\+new app/);
    assert.doesNotMatch(staged.text, /hunter2|old-token/);
    assert.match(staged.text, /left out 1 secret-like file .*\.env/);
    git(repo, 'reset', '-q');
  });

  it('leaves out a secret renamed to an innocent name, both names', async () => {
    git(repo, 'mv', 'keys/move.key', 'moved.txt');
    const { text } = await call({ action: 'diff', staged: true });
    assert.doesNotMatch(text, /moved-key|rename from/);
    assert.match(text, /keys\/move\.key \(\*\.key files \(private keys and certificates\)\), moved\.txt \(renamed or copied from or to keys\/move\.key\)/);
    git(repo, 'mv', 'moved.txt', 'keys/move.key');
  });

  it('indexes a diff over 100 KB without the secret-like files', async () => {
    writeFileSync(path.join(repo, 'big.txt'), Array.from({ length: 1500 }, (_, i) => `changed line ${i} ${'payload '.repeat(12)}`).join('\n'));
    git(repo, 'add', '-N', 'big.txt');
    const { text } = await call({ action: 'diff' });
    assert.match(text, /indexed as "git diff"/);
    assert.match(text, /left out 3 secret-like files/);
    assert.doesNotMatch(text, /hunter2/);
    const found = textOf(await t.call('ctx_kb', { action: 'search', query: 'hunter2', source: 'git diff' }));
    assert.doesNotMatch(found, /hunter2-/);
    assert.match(textOf(await t.call('ctx_kb', { action: 'search', query: 'changed line 1234', source: 'git diff' })), /changed line 1234/);
  });
});
