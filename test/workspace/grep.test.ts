import assert from 'node:assert/strict';
import { linkSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppError, ErrorCode } from '../../src/errors.ts';
import { resolveSafe } from '../../src/security/resolve-safe.ts';
import { readdirSync } from 'node:fs';
import { createAdmission } from '../../src/workspace/grep/admission.ts';
import { admitFiles, admittedPaths } from '../../src/workspace/grep/filelist.ts';
import { countMatches, type GrepEngine, grep, scanList } from '../../src/workspace/grep/index.ts';
import type { GrepQuery, GrepResult } from '../../src/workspace/grep/types.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { type TestApp, testApp } from '../helpers/app.ts';

const FILES: Record<string, string | Uint8Array> = {
  '.gitignore': 'build/\n*.log\n',
  'src/main.ts': 'import { helper } from "./helper";\n// TODO: wire the retry\nexport function main() {\n  return helper(1);\n}\n',
  'src/helper.ts': 'export function helper(n: number) {\n  // todo lower case\n  return n + 1;\n}\n',
  'src/deep/.gitignore': 'generated.ts\n!keep.log\n',
  'src/deep/generated.ts': 'TODO generated\n',
  'src/deep/keep.log': 'TODO kept by negation\n',
  'src/deep/util.go': 'package deep\n\n// TODO(go): fix\nfunc Util() int { return 1 }\n',
  'build/out.js': 'TODO built\n',
  'debug.log': 'TODO log\n',
  '.hidden/notes.md': 'TODO hidden\n',
  '.env': 'TODO=secret\n',
  'config/.env.local': 'TODO=secret\n',
  'keys/server.pem': 'TODO pem\n',
  '.ssh/id_rsa': 'TODO key\n',
  'docs/guide.md': 'a.b literal\naxb not literal\nTODO docs\n',
  'bin/blob.bin': new Uint8Array([0, 1, 2, 84, 79, 68, 79, 10]),
  'i18n/words.txt': 'größe = "naïve wörter";\n😀 emoji then wörter\n',
  // Secret by a name in other letters, as a backup or editor copy, and by content.
  'config/CREDENTIALS.JSON': '{"TODO": "secret"}\n',
  'keys/id_rsa.bak': 'TODO key copy\n',
  'keys/server.pem.orig': 'TODO pem copy\n',
  'notes/key.txt': '-----BEGIN RSA PRIVATE KEY-----\nTODO in a key\n-----END RSA PRIVATE KEY-----\n',
};

/** Every folder project() made: removed once the file's tests are done. */
const made: string[] = [];
after(() => {
  for (const dir of made) removeDir(dir);
});

/**
 * The fixture, plus symlinks that lead to secrets under harmless names (issue 11), a hard link of
 * .env under a harmless name (issue 23), a symlinked folder (never entered) and a symlink leading
 * out of the tree: every kind of file a search must not see.
 */
function project(): string {
  const root = fixture(FILES);
  made.push(root);
  symlinkSync('.env', path.join(root, 'env_alias.txt'));
  symlinkSync('.ssh', path.join(root, 'keys_link'));
  linkSync(path.join(root, '.env'), path.join(root, 'env_copy.txt'));
  symlinkSync('src', path.join(root, 'src_link'));
  const outside = fixture({ 'far.txt': 'TODO outside\n' });
  made.push(outside);
  symlinkSync(path.join(outside, 'far.txt'), path.join(root, 'far_link.txt'));
  mkdirSync(path.join(root, 'node_modules/pkg'), { recursive: true });
  return root;
}

/** The files a search for TODO may find in project(): every other file is excluded by one rule or another. */
const VISIBLE = ['docs/guide.md', 'src/deep/keep.log', 'src/deep/util.go', 'src/main.ts'];

function strip(r: GrepResult) {
  const { engine: _, ...rest } = r;
  return rest;
}

const engines: GrepEngine[] = runtime.which('rg') ? ['builtin', 'rg'] : ['builtin'];

for (const engine of engines) {
  describe(`ctx_fs rg engine: ${engine}`, () => {
    let t: TestApp;
    before(() => {
      t = testApp(project());
    });
    after(() => t.close());

    const run = (q: Partial<GrepQuery>, path?: string) =>
      grep(t.app, resolveSafe(t.app.runtime.fs, t.app.workdirs, path), { pattern: 'TODO', literal: false, ignoreCase: false, context: 0, limit: 50, ...q }, { engine });

    it('answers with its own name; honours nested .gitignore files, negations included, and skips hidden, binary and secret files', async () => {
      const r = await run({});
      assert.equal(r.engine, engine);
      assert.deepEqual(
        r.files.map((f) => f.path),
        ['docs/guide.md', 'src/deep/keep.log', 'src/deep/util.go', 'src/main.ts'],
      );
      assert.equal(r.matches, 4);
      assert.equal(r.truncated, false);
    });

    it('never searches secret files, even when the glob asks for them', async () => {
      for (const glob of ['.env', '*.pem', 'id_rsa', '.env.*']) {
        const r = await run({ glob });
        assert.deepEqual(r.files, [], glob);
      }
    });

    it('never searches a secret reached through a symlink, given as the path or met on the walk', async () => {
      assert.deepEqual((await run({}, 'env_alias.txt')).files, []);
      assert.deepEqual((await run({}, 'keys_link')).files, []);
      assert.deepEqual((await run({ glob: '*alias*' })).files, []);
      assert.deepEqual((await run({ glob: 'keys_link/**' })).files, []);
    });

    it('filters by glob, by name at any depth or by path', async () => {
      assert.deepEqual((await run({ glob: '*.go' })).files.map((f) => f.path), ['src/deep/util.go']);
      assert.deepEqual((await run({ glob: '!*.go' })).files.map((f) => f.path), ['docs/guide.md', 'src/deep/keep.log', 'src/main.ts']);
      assert.deepEqual((await run({ glob: 'src/*.ts' })).files.map((f) => f.path), ['src/main.ts']);
      // As with rg --glob: a matching glob overrides .gitignore for files, not for ignored folders.
      assert.deepEqual((await run({ glob: '*.log' })).files.map((f) => f.path), ['debug.log', 'src/deep/keep.log']);
      assert.deepEqual((await run({ glob: '*.js' })).files, []);
    });

    it('ignores case on request and treats literal text literally', async () => {
      assert.equal((await run({ ignoreCase: true })).matches, 5);
      assert.equal((await run({ pattern: 'a.b' }, 'docs')).matches, 2);
      assert.equal((await run({ pattern: 'a.b', literal: true }, 'docs')).matches, 1);
    });

    it('adds context lines around matches, merged where they overlap', async () => {
      const r = await run({ pattern: 'return', context: 1 }, 'src/helper.ts');
      assert.deepEqual(r.files[0]?.lines, [
        { line: 2, text: '  // todo lower case', match: false },
        { line: 3, text: '  return n + 1;', match: true, at: 2 },
        { line: 4, text: '}', match: false },
      ]);
    });

    it('stops at the limit and says more exist', async () => {
      const r = await run({ limit: 2 });
      assert.equal(r.matches, 2);
      assert.equal(r.truncated, true);
      assert.deepEqual(r.files.map((f) => f.path), ['docs/guide.md', 'src/deep/keep.log']);
      const exact = await run({ limit: 4 });
      assert.equal(exact.truncated, false, 'exactly as many as the limit is not truncated');
    });

    it('refuses an invalid regular expression with a clear error', async () => {
      await assert.rejects(run({ pattern: 'foo(' }), /pattern|regex|rg refused/i);
    });

    it('refuses look-around and backreferences with an error that names them', async () => {
      const refused = (what: RegExp) => (error: unknown) => {
        assert.ok(error instanceof AppError);
        assert.equal(error.code, ErrorCode.InvalidArgument);
        assert.match(error.message, what);
        return true;
      };
      await assert.rejects(run({ pattern: '(?<=x)y' }), refused(/look-behind/));
      await assert.rejects(run({ pattern: '(?!x)y' }), refused(/look-ahead/));
      await assert.rejects(run({ pattern: '(a)\\1' }), refused(/backreference/));
    });

    it('answers (a+)+b over a line of 50,000 a without backtracking (issue 11)', async () => {
      const root = fixture({ 'many-a.txt': `${'a'.repeat(50_000)}\nbaab\n${'a'.repeat(50_000)}!\n` });
      const app = testApp(root);
      try {
        const q = { pattern: '(a+)+b', literal: false, ignoreCase: false, context: 0, limit: 50 };
        const r = await grep(app.app, resolveSafe(app.app.runtime.fs, app.app.workdirs, undefined), q, { engine });
        assert.deepEqual(r.files, [{ path: 'many-a.txt', lines: [{ line: 2, text: 'baab', match: true, at: 1 }] }]);
        const bang = await grep(app.app, resolveSafe(app.app.runtime.fs, app.app.workdirs, undefined), { ...q, pattern: '(a+)+b|!' }, { engine });
        // The match at the end of a 50,001-character line: its row is the window around it.
        assert.deepEqual(bang.files[0]?.lines.map((l) => [l.line, l.match, l.at, l.text.slice(-3)]), [[2, true, 1, 'aab'], [3, true, 101, 'aa!']]);
      } finally {
        await app.close();
        removeDir(root);
      }
    });

    it('says where the match starts on each matching line, in string indices', async () => {
      const r = await run({ pattern: 'w.rter' }, 'i18n');
      assert.deepEqual(r.files[0]?.lines.map((l) => [l.line, l.at]), [[1, 15], [2, 14]]);
      const word = await run({ pattern: 'größe', wordBoundary: true }, 'i18n');
      assert.deepEqual(word.files[0]?.lines.map((l) => [l.line, l.at]), [[1, 0]]);
    });
  });
}

if (engines.length === 2) {
  describe('both rg engines', () => {
    let t: TestApp;
    before(() => {
      t = testApp(project());
    });
    after(() => t.close());

    it('give the same answers', async () => {
      const queries: Partial<GrepQuery>[] = [
        {},
        { ignoreCase: true, context: 2 },
        { pattern: 'return|helper', context: 1, limit: 3 },
        { pattern: 'n \\+ 1' },
        { glob: '**/*.log' },
        { pattern: 'W.RTER|naïve', ignoreCase: true },
        { pattern: '(?i)GRÖSSE|größe', wordBoundary: true },
        { pattern: 'helper', wordBoundary: true, context: 1 },
      ];
      for (const q of queries) {
        const target = resolveSafe(t.app.runtime.fs, t.app.workdirs, undefined);
        const query = { pattern: 'TODO', literal: false, ignoreCase: false, context: 0, limit: 50, ...q };
        const a = await grep(t.app, target, query, { engine: 'builtin' });
        const b = await grep(t.app, target, query, { engine: 'rg' });
        assert.deepEqual(strip(a), strip(b), JSON.stringify(q));
      }
    });
  });
}

for (const engine of engines) {
  describe(`a search over a named file list (a text index's candidates), ${engine} engine`, () => {
    let t: TestApp;
    let root: string;
    before(() => {
      root = project();
      t = testApp(root);
    });
    after(() => t.close());

    /** Every path on disk, hidden, ignored, secret, binary and symlinked ones included. */
    const everything = (rel = ''): string[] =>
      readdirSync(path.join(root, rel), { withFileTypes: true }).flatMap((d) => {
        const p = rel ? `${rel}/${d.name}` : d.name;
        return d.isDirectory() ? everything(p) : [p];
      });

    it('answers and counts exactly as the walk over the same target, even when the list holds every file', async () => {
      const queries: Partial<GrepQuery>[] = [
        {},
        { ignoreCase: true, context: 2 },
        { pattern: 'return|helper', context: 1, limit: 3 },
        { pattern: 'todo', literal: true, ignoreCase: true },
        { pattern: 'helper', wordBoundary: true },
        { glob: '**/*.log' },
        { glob: 'generated.ts' },
        { glob: '!*.md' },
        { excludeDirs: ['deep'] },
        { excludePaths: ['docs'] },
        { pattern: 'W.RTER|naïve', ignoreCase: true },
      ];
      for (const scope of [undefined, 'src']) {
        const target = resolveSafe(t.app.runtime.fs, t.app.workdirs, scope);
        for (const q of queries) {
          const query = { pattern: 'TODO', literal: false, ignoreCase: false, context: 0, limit: 50, ...q };
          const files = admitFiles(t.app.runtime.fs, await createAdmission({ fs: t.app.runtime.fs, workdirs: t.app.workdirs }, target, query), everything());
          const label = `${scope ?? '.'} ${JSON.stringify(q)}`;
          assert.deepEqual(await grep(t.app, target, query, { engine, files }), await grep(t.app, target, query, { engine }), label);
          assert.deepEqual(await countMatches(t.app, target, query, { engine, files }), await countMatches(t.app, target, query, { engine }), label);
        }
      }
    });

    it('sees through every engine exactly the files the one admission lets through: the walk, a list of every file, counts and one-pass scans; counts as many lines as the search finds', async () => {
      const target = resolveSafe(t.app.runtime.fs, t.app.workdirs, undefined);
      const query = { pattern: 'TODO', literal: true, ignoreCase: false, context: 0, limit: 50 };
      const admission = await createAdmission({ fs: t.app.runtime.fs, workdirs: t.app.workdirs }, target, query);
      const files = admitFiles(t.app.runtime.fs, admission, everything());
      // The same list however it comes: in path order (an index's candidates), or out of order with repeats.
      const all = everything();
      const inOrder = [...all].sort();
      assert.deepEqual(admittedPaths(admission, inOrder), admittedPaths(admission, [...all, ...inOrder].reverse()));
      assert.deepEqual(admittedPaths(admission, [...inOrder, inOrder[0]!]), admittedPaths(admission, inOrder), 'a repeat after the ordered part');
      // By path, the admission lets through the visible files and those only their opening rules out
      // (binary, a hard link of .env, key content); symlinks are left out by the list's lstat.
      assert.deepEqual(files.map((f) => f.relRoot), ['bin/blob.bin', 'docs/guide.md', 'env_copy.txt', 'i18n/words.txt', 'notes/key.txt', 'src/deep/keep.log', 'src/deep/util.go', 'src/helper.ts', 'src/main.ts']);
      const found = (r: GrepResult) => r.files.map((f) => f.path);
      const walked = await grep(t.app, target, query, { engine });
      assert.deepEqual(found(walked), VISIBLE, 'the walk');
      assert.deepEqual(found(await grep(t.app, target, query, { engine, files, admission })), VISIBLE, 'the list');
      const walkCounts = await countMatches(t.app, target, query, { engine });
      assert.deepEqual([...walkCounts.keys()].sort(), VISIBLE, 'counts over the walk');
      // A file's count is the number of its lines the search finds.
      assert.deepEqual(Object.fromEntries(walkCounts), Object.fromEntries(walked.files.map((f) => [f.path, f.lines.length])), 'counts are the lines found');
      assert.deepEqual([...(await countMatches(t.app, target, query, { engine, files })).keys()].sort(), VISIBLE, 'counts over the list');
      const listed = await scanList(t.app, target, query, files.map((f) => f.relRoot), undefined, admission);
      assert.deepEqual([...listed.counts.keys()].sort(), VISIBLE, 'one-pass scan counts');
      assert.deepEqual(found(listed.result), VISIBLE, 'one-pass scan lines');
    });
  });
}
