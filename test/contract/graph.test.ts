// One contract every graph adapter passes on the same fixture repositories (one small program per
// supported language): what an adapter answers must be right; `undefined` means "cannot answer",
// allowed for everything but definitions, and the caller then asks the fallback or scans.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { createCodegraphAdapter } from '../../src/retrieval/graph-codegraph.ts';
import { createNullAdapter, type GraphAdapter, withFallback } from '../../src/retrieval/graph.ts';
import { createBuiltinAdapter } from '../../src/retrieval/graph.ts';
import type { Logger } from '../../src/logging/logger.ts';
import { createExecutor } from '../../src/exec/executor.ts';
import { fixture, removeDir } from '../helpers/env.ts';
import { type TestApp, testApp } from '../helpers/app.ts';
import { runtime } from '../helpers/env.ts';
import { SAMPLES } from '../code/samples.ts';

/** Per language: a definition, a line inside it, a name it calls, and a caller of a defined name. */
const CASES = [
  { language: 'typescript', def: 'checkout', owner: undefined, inside: 11, calls: 'handle', called: 'handle', caller: 'checkout' },
  { language: 'javascript', def: 'checkout', owner: undefined, inside: 10, calls: 'add', called: 'add', caller: 'checkout' },
  { language: 'python', def: 'add_item', owner: 'Cart', inside: 7, calls: 'discount', called: 'add_item', caller: 'checkout' },
  { language: 'go', def: 'Put', owner: 'Store', inside: 11, calls: 'Println', called: 'Println', caller: 'Put' },
  { language: 'rust', def: 'parse_all', owner: undefined, inside: 15, calls: 'parse_number', called: 'parse_number', caller: 'parse_all' },
  { language: 'java', def: 'handle', owner: 'Orders', inside: 6, calls: 'push', called: 'push', caller: 'handle' },
  { language: 'csharp', def: 'Handle', owner: 'Orders', inside: 6, calls: 'Push', called: 'Push', caller: 'Handle' },
  { language: 'c', def: 'list_sum', owner: undefined, inside: 12, calls: 'list_add', called: 'list_add', caller: 'list_sum' },
  { language: 'cpp', def: 'add', owner: 'List', inside: 10, calls: 'grow', called: 'grow', caller: 'add' },
  { language: 'ruby', def: 'add_item', owner: 'Cart', inside: 6, calls: 'push', called: 'push', caller: 'add_item' },
  { language: 'php', def: 'checkout', owner: undefined, inside: 11, calls: 'addItem', called: 'addItem', caller: 'checkout' },
] as const;

const silent: Logger = { log() {}, file: undefined, close() {} };

function contract(name: string, setup: (root: string, app: TestApp) => Promise<GraphAdapter | undefined>): void {
  describe(`graph adapter contract: ${name}`, () => {
    let root: string;
    let app: TestApp;
    let graph: GraphAdapter | undefined;
    before(async () => {
      root = fixture(Object.fromEntries(Object.values(SAMPLES).map((s) => [s.file, s.text])));
      app = testApp(root, { graphBackend: 'builtin' });
      await app.app.code.refresh();
      graph = await setup(root, app);
    });
    after(async () => {
      await graph?.dispose();
      await app.close();
      removeDir(root);
    });

    for (const c of CASES) {
      const file = SAMPLES[c.language].file;
      it(`${c.language}: finds ${c.owner ? `${c.owner}.` : ''}${c.def} where it is defined`, async (t) => {
        if (!graph) return t.skip('adapter not installed here');
        const defs = await graph.definitions(c.def, c.owner);
        assert.ok(defs, 'definitions must answer');
        const d = defs.find((x) => x.file === file);
        assert.ok(d, `${c.def} in ${file}: got ${defs.map((x) => x.file).join(', ')}`);
        assert.ok(d.start <= c.inside && c.inside <= d.end, `${c.inside} lies in ${d.start}-${d.end}`);
      });
      it(`${c.language}: says what ${c.def} calls and who calls ${c.called}, with the enclosing function`, async (t) => {
        if (!graph) return t.skip('adapter not installed here');
        const def = (await graph.definitions(c.def, c.owner))?.find((x) => x.file === file);
        assert.ok(def);
        const callees = await graph.callees(def);
        if (callees) assert.ok(callees.some((x) => x.name === c.calls), `${c.def} calls ${c.calls}: got ${callees.map((x) => x.name).join(', ')}`);
        const uses = await graph.uses(c.called);
        if (uses) {
          const call = uses.uses.find((u) => u.kind === 'call' && u.file === file && u.caller?.name === c.caller);
          assert.ok(call, `a call of ${c.called} in ${c.caller}: got ${JSON.stringify(uses.uses.map((u) => [u.file, u.line, u.caller?.name]))}`);
        }
        const at = await graph.definitionAt(file, c.inside);
        if (at !== undefined) assert.equal(at?.name, c.def);
        const outline = await graph.outline(file);
        if (outline) assert.ok(outline.length > 0);
      });
    }

    it('answers nothing rather than something wrong for a name that is not defined', async (t) => {
      if (!graph) return t.skip('adapter not installed here');
      assert.deepEqual(await graph.definitions('noSuchSymbolAnywhere'), []);
    });
  });
}

contract('builtin', async (_root, app) => createBuiltinAdapter(app.app.code));

contract('an external backend that crashes, with the built-in index as its fallback', async (_root, app) => {
  const crashing: GraphAdapter = {
    ...createNullAdapter('codegraph'),
    definitions: async () => {
      throw new Error('backend crashed');
    },
    uses: () => new Promise(() => undefined),
  };
  return withFallback(crashing, createBuiltinAdapter(app.app.code), silent, { timeoutMs: 200 });
});

contract('codegraph (when installed), with the built-in index as its fallback', async (root, app) => {
  const bin = runtime.env.get('CTXGATE_TEST_CODEGRAPH') ?? runtime.which('codegraph');
  if (!bin) return undefined;
  execFileSync(bin, ['init', root], { env: { ...runtime.env.toObject(), CODEGRAPH_TELEMETRY: '0' }, stdio: 'ignore' });
  const exec = createExecutor(runtime);
  return withFallback(createCodegraphAdapter({ runtime, exec, logger: silent, projectRoot: root, bin }), createBuiltinAdapter(app.app.code), silent, { timeoutMs: 20_000 });
});

describe('graph adapter: none', () => {
  it('never answers, so every question goes to the file scan', async () => {
    const none = createNullAdapter();
    assert.equal(await none.definitions('x'), undefined);
    assert.equal(await none.uses('x'), undefined);
    assert.equal(await none.searchBlocks('x y', () => true, 5), undefined);
  });
});
