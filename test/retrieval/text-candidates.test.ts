import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { definitionProbe } from '../../src/retrieval/dispatcher.ts';
import { scan } from '../../src/retrieval/fileio.ts';
import type { RetrievalDeps } from '../../src/retrieval/types.ts';
import type { SafePath } from '../../src/security/resolve-safe.ts';
import type { TextCandidates, TextIndexReader, TextIndexStatus, TextQuery } from '../../src/textindex/types.ts';
import { walk } from '../../src/workspace/walk.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { engineSetups } from '../helpers/engines.ts';

// Issue 14: with a text index, the gate scans only the files it names — and answers exactly as the
// full scan, whatever the index lists (here: every file on disk, hidden, ignored, secret, binary and
// symlinked ones included, which the walk's rules must still keep out).
const many = Array.from({ length: 5200 }, (_, i) => `common line ${i}`).join('\n');
const FILES: Record<string, string | Uint8Array> = {
  '.gitignore': 'build/\n*.log\n!keep.log\n',
  'src/alpha.ts': 'export function alpha() {}\nconst Alpha = alpha();\n// alphabet soup\n',
  'src/beta.ts': 'import { alpha } from "./alpha";\nalpha(); alpha();\nretry_count = 3;\n',
  'src/deep/gamma.ts': 'const gamma = "ALPHA";\nfor (retry = 0; retry < max_count; retry++) {}\n',
  'src/deep/notes.log': 'alpha in an ignored log\n',
  'src/deep/keep.log': 'alpha in a kept log\n',
  'src/.hidden/h.ts': 'alpha hidden\n',
  'build/out.ts': 'alpha built\n',
  'node_modules/pkg/index.js': 'alpha dependency\n',
  'legacy/old.ts': 'alpha legacy\n',
  'tests/alpha.test.ts': 'alpha();\nalpha();\n',
  '.env': 'ALPHA=secret\n',
  'keys/server.pem': 'alpha key\n',
  'bin/blob.dat': new Uint8Array([0x61, 0x6c, 0x70, 0x68, 0x61, 0x0a, 0, 1, 2]),
  'big/common.txt': many,
  'big/more.txt': 'common too\n',
};

function allFiles(root: string, rel = ''): string[] {
  return readdirSync(path.join(root, rel), { withFileTypes: true }).flatMap((d) => {
    const p = rel ? `${rel}/${d.name}` : d.name;
    return d.isDirectory() ? allFiles(root, p) : [p];
  });
}

/** An index that narrows nothing away: every file under the scope is a candidate. */
function everythingIndex(root: string): TextIndexReader & { asked: TextQuery[] } {
  const asked: TextQuery[] = [];
  return {
    asked,
    async candidates(query: TextQuery, scope: string): Promise<TextCandidates> {
      asked.push(query);
      const files = allFiles(root).filter((f) => !scope || f.startsWith(`${scope}/`));
      return { files: files.sort(), ruledOut: 0 };
    },
    touched() {},
    status: (): TextIndexStatus => ({ state: 'ready', indexed: 1, total: 1, bytes: 0 }),
  };
}

/**
 * The same, saying which candidates its catalogue holds by the walk's rules (the regular files a walk
 * of the root yields, .gitignore applied, excluded folders not skipped): those are not judged again.
 */
async function cataloguedIndex(root: string): Promise<TextIndexReader & { asked: TextQuery[] }> {
  const listed = new Set<string>();
  for await (const e of walk(runtime.fs, { root, base: root, includeHidden: false, respectGitignore: true, listOnlyDirs: new Set() })) if (e.type === 'file') listed.add(e.relRoot);
  const all = everythingIndex(root);
  return { ...all, candidates: async (query, scope) => ({ ...(await all.candidates(query, scope))!, catalogued: (p) => listed.has(p) }) };
}

function scopeOf(root: string, relative: string): SafePath {
  const abs = relative ? path.join(root, relative) : root;
  return { path: abs, real: abs, workdir: root, relative, exists: true };
}

const setups = engineSetups();

interface Case {
  name: string;
  pattern: string;
  literal: boolean;
  wordBoundary: boolean;
  ignoreCase: boolean;
  symbol?: string;
  scope?: string;
  exclude?: string[];
}

const QUERIES: Case[] = [
  { name: 'a literal', pattern: 'alpha', literal: true, wordBoundary: false, ignoreCase: false },
  { name: 'a regex', pattern: 'retry.*count', literal: false, wordBoundary: false, ignoreCase: false },
  { name: 'a case-insensitive literal', pattern: 'alpha', literal: true, wordBoundary: false, ignoreCase: true },
  { name: 'a whole-word symbol', pattern: 'alpha', literal: true, wordBoundary: true, ignoreCase: false, symbol: 'alpha' },
  { name: 'a scoped literal', pattern: 'alpha', literal: true, wordBoundary: false, ignoreCase: false, scope: 'src' },
  { name: 'an excluded literal', pattern: 'alpha', literal: true, wordBoundary: false, ignoreCase: false, exclude: ['legacy', 'src/deep'] },
  { name: 'a term too common to collect', pattern: 'common', literal: true, wordBoundary: false, ignoreCase: false },
  { name: 'an absent literal', pattern: 'PathDeniedError', literal: true, wordBoundary: false, ignoreCase: false },
];

for (const setup of setups) {
  describe(`gate scans over index candidates, ${setup.engine} engine`, { skip: setup.skip }, () => {
    let t: TestApp;
    let root: string;
    before(() => {
      root = fixture(FILES);
      symlinkSync(path.join(root, 'src/alpha.ts'), path.join(root, 'src/link.ts'));
      // File scans only: a code index finishing mid-test would change the answers under us.
      t = testApp(root, { graphBackend: 'none' }, setup.env);
      // Nor the app's own text index: its first query would start the code index's build in the
      // background (tree-sitter over every file, the 1,600 written below included: seconds of CPU,
      // and a shutdown waiting on it), and once ready it would narrow the scans these tests take for
      // full ones. Each test hands the scan the index it means.
      t.app.textIndex = undefined;
    });
    after(async () => {
      await t.close();
      removeDir(root);
    });

    for (const q of QUERIES) {
      it(`finds the same hits, counts and cap for ${q.name} as the full scan`, async () => {
        const index = everythingIndex(root);
        const req = { ...q, scope: scopeOf(root, q.scope ?? ''), exclude: q.exclude ?? [] };
        const full = await scan(t.app, req);
        const narrowed = await scan({ ...t.app, textIndex: index } as RetrievalDeps, req);
        assert.equal(index.asked.length, 1, 'the index was asked');
        assert.deepEqual(narrowed, full);
        const listed = await cataloguedIndex(root);
        assert.deepEqual(await scan({ ...t.app, textIndex: listed } as RetrievalDeps, req), full, 'with the catalogue verdicts taken');
        assert.equal(listed.asked.length, 1);
        if (q.pattern === 'alpha' && !q.ignoreCase && !q.exclude) {
          const files = new Set(full.hits.map((h) => h.file));
          for (const never of ['src/.hidden/h.ts', 'build/out.ts', 'node_modules/pkg/index.js', '.env', 'keys/server.pem', 'bin/blob.dat', 'src/link.ts', 'src/deep/notes.log']) assert.ok(!files.has(never), never);
        }
        if (q.pattern === 'common') {
          assert.equal(full.capped, true);
          assert.equal([...(full.counts?.values() ?? [])].reduce((a, b) => a + b, 0), 5201);
        }
      });
    }

    it('answers search and locate through the tools exactly as without the index', async () => {
      const calls: [string, Record<string, unknown>][] = [
        ['search', { pattern: 'alpha' }],
        ['search', { pattern: 'retry.*count', regex: true }],
        ['search', { pattern: 'alpha', scope: 'src', exclude: ['deep'] }],
        ['search', { pattern: 'common' }],
        ['locate', { query: 'alpha' }],
        ['locate', { query: 'alpha', kind: 'definition' }],
      ];
      const answers = async () => {
        const out: string[] = [];
        for (const [tool, args] of calls) out.push((await t.call(tool, args)).content[0]!.text);
        return out;
      };
      const full = await answers();
      t.app.textIndex = everythingIndex(root);
      try {
        assert.deepEqual(await answers(), full);
      } finally {
        t.app.textIndex = undefined;
      }
      assert.match(full[3]!, /refused/);
    });

    it('probes for definitions of a too-common symbol in the files that name it, and reads many candidates, with the answers of full scans', async () => {
      writeFileSync(path.join(root, 'big/def.c'), 'int common;\nstatic void common(void) {}\n#define common 1\n');
      // Enough files naming it that ripgrep (when installed) reads them rather than the built-in engine.
      mkdirSync(path.join(root, 'big/many'));
      for (let i = 0; i < 1600; i++) writeFileSync(path.join(root, `big/many/f${i}.c`), i === 7 ? 'struct common {};\n' : 'x = common(1);\n');
      try {
        const scope = scopeOf(root, '');
        const usesReq = { pattern: 'common', literal: true, wordBoundary: true, ignoreCase: false, scope, exclude: [], symbol: 'common' };
        const uses = await scan(t.app, usesReq);
        assert.equal(uses.capped, true);
        const probe = { pattern: definitionProbe('common'), literal: false, wordBoundary: false, ignoreCase: false, scope, exclude: [], symbol: 'common' };
        const full = await scan(t.app, probe);
        assert.deepEqual(await scan(t.app, { ...probe, within: [...uses.counts!.keys()] }), full);
        assert.deepEqual(full.hits.map((h) => `${h.file}:${h.line}`).sort(), ['big/def.c:1', 'big/def.c:2', 'big/def.c:3', 'big/many/f7.c:1']);
        // And an index naming all those files answers as the scan does (the full scans above, of the
        // same requests, on the same files).
        for (const [req, plain] of [
          [probe, full],
          [usesReq, uses],
        ] as const) {
          assert.deepEqual(await scan({ ...t.app, textIndex: everythingIndex(root) } as RetrievalDeps, req), plain, req.pattern);
        }
      } finally {
        rmSync(path.join(root, 'big/def.c'));
        rmSync(path.join(root, 'big/many'), { recursive: true });
      }
    });

    it('scans as before when the index cannot narrow the query', async () => {
      const index: TextIndexReader = { candidates: async () => undefined, touched() {}, status: () => ({ state: 'building', indexed: 1, total: 9, bytes: 0 }) };
      const req = { pattern: 'alpha', literal: true, wordBoundary: false, ignoreCase: false, scope: scopeOf(root, ''), exclude: [] };
      assert.deepEqual(await scan({ ...t.app, textIndex: index } as RetrievalDeps, req), await scan(t.app, req));
    });

    it('never serves a file the index wrongly ruled out once it is touched', async () => {
      const ruledOut = new Set(['src/fresh.ts']);
      const index: TextIndexReader = {
        async candidates() {
          return { files: allFiles(root).filter((f) => !ruledOut.has(f)), ruledOut: ruledOut.size };
        },
        touched(paths) {
          for (const p of paths) ruledOut.delete(p);
        },
        status: () => ({ state: 'ready', indexed: 1, total: 1, bytes: 0 }),
      };
      writeFileSync(path.join(root, 'src/fresh.ts'), 'const zeta_fresh = 1;\n');
      const req = { pattern: 'zeta_fresh', literal: true, wordBoundary: false, ignoreCase: false, scope: scopeOf(root, ''), exclude: [] };
      const deps = { ...t.app, textIndex: index } as RetrievalDeps;
      assert.equal((await scan(deps, req)).hits.length, 0, 'a stale index hides the file');
      index.touched(['src/fresh.ts']);
      assert.deepEqual((await scan(deps, req)).hits.map((h) => `${h.file}:${h.line}`), ['src/fresh.ts:1']);
    });
  });
}
