import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { type CatalogueEntry, catalogue } from '../../src/code/catalogue.ts';
import { createExecutor } from '../../src/exec/executor.ts';
import { fixture, removeDir, runtime, withEnv } from '../helpers/env.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) removeDir(d);
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' },
  });
}

const FILES = {
  '.gitignore': 'build/\n*.log\nforced.txt\n',
  'src/a.ts': 'a\n',
  'src/deep/b.ts': 'b\n',
  'src/deep/.gitignore': 'generated.ts\n',
  'src/deep/generated.ts': 'g\n',
  'build/out.js': 'o\n',
  'debug.log': 'l\n',
  'forced.txt': 'tracked although ignored\n',
  '.env': 'SECRET=1\n',
  '.github/ci.yml': 'x\n',
  'node_modules/dep/index.js': 'd\n',
  'third_party/lib.c': 'excluded by scan.excludeDirs\n',
  'untracked.md': 'not committed, not ignored\n',
  'docs/guide.md': 'g\n',
};

let gitRuns = 0;

async function listed(root: string, options: { git: boolean; runtimeOverride?: typeof runtime }): Promise<string[]> {
  const rt = options.runtimeOverride ?? runtime;
  const out: CatalogueEntry[] = [];
  const exec = createExecutor(rt);
  const counted = {
    ...exec,
    run: (r: Parameters<typeof exec.run>[0]) => {
      gitRuns++;
      return exec.run(r);
    },
  };
  const git = options.git ? { runtime: rt, exec: counted } : undefined;
  for await (const e of catalogue(rt.fs, { dirs: [root] }, { root, excludeDirs: ['third_party'], respectGitignore: true, git })) out.push(e);
  return out.map((e) => e.path).sort();
}

function repo(files: Record<string, string>): string {
  const root = fixture(files);
  dirs.push(root);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '.');
  git(root, 'add', '-f', 'forced.txt');
  git(root, 'rm', '-q', '--cached', 'untracked.md');
  git(root, 'commit', '-q', '-m', 'init');
  return root;
}

describe('the file catalogue', () => {
  it('lists a git repository with git ls-files exactly as the walk lists it: untracked files in, ignored files, hidden entries, secrets and excluded folders out', async () => {
    const root = repo(FILES);
    const expected = ['docs/guide.md', 'src/a.ts', 'src/deep/b.ts', 'untracked.md'];
    assert.deepEqual(await listed(root, { git: false }), expected);
    gitRuns = 0;
    assert.deepEqual(await listed(root, { git: true }), expected);
    assert.equal(gitRuns, 3, 'rev-parse and two ls-files');
  });

  it('keeps the files of a nested repository and of a committed one (a gitlink), which git lists as one entry', async () => {
    const root = repo(FILES);
    const nested = fixture({ 'inner.c': 'int inner;\n', 'sub/deeper.c': 'int deeper;\n' });
    dirs.push(nested);
    execFileSync('cp', ['-r', nested, `${root}/vendored`]);
    execFileSync('cp', ['-r', nested, `${root}/embedded`]);
    git(`${root}/vendored`, 'init', '-q');
    git(`${root}/embedded`, 'init', '-q');
    git(`${root}/embedded`, 'add', '.');
    git(`${root}/embedded`, 'commit', '-q', '-m', 'inner');
    git(root, 'add', 'embedded');
    git(root, 'commit', '-q', '-m', 'gitlink');
    const files = await listed(root, { git: true });
    for (const f of ['vendored/inner.c', 'vendored/sub/deeper.c', 'embedded/inner.c', 'embedded/sub/deeper.c']) assert.ok(files.includes(f), `${f} is listed`);
    assert.deepEqual(files, await listed(root, { git: false }));
  });

  it('reads the .gitignore files only, as the walk and the scan do: .git/info/exclude and the global excludes file do not hide a file', async () => {
    const root = repo(FILES);
    writeFileSync(`${root}/.git/info/exclude`, 'untracked.md\n');
    const home = fixture({ '.config/git/ignore': 'docs/\n' });
    dirs.push(home);
    const rt = withEnv(runtime, { HOME: home, XDG_CONFIG_HOME: `${home}/.config` });
    const expected = ['docs/guide.md', 'src/a.ts', 'src/deep/b.ts', 'untracked.md'];
    assert.deepEqual(await listed(root, { git: true, runtimeOverride: rt }), expected);
    assert.deepEqual(await listed(root, { git: false, runtimeOverride: rt }), expected);
  });

  it('walks when git is missing or the folder is not the top of a repository', async () => {
    const root = repo(FILES);
    const noGit = withEnv(runtime, { PATH: '/nonexistent' });
    assert.deepEqual(await listed(root, { git: true, runtimeOverride: noGit }), ['docs/guide.md', 'src/a.ts', 'src/deep/b.ts', 'untracked.md']);
    assert.deepEqual(await listed(`${root}/src`, { git: true }), ['a.ts', 'deep/b.ts']);
  });
});
