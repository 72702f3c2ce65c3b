// tools/list from the generated listing (src/tools/listing.ts): a stdio server lists the tools before
// building any schema, so the file must say exactly what the declarations say, and a registry made from
// it must call the tools as the declarations' registry does.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { listingSource, LISTING_FILE } from '../../scripts/gen-tool-listing.ts';
import { createClientSession } from '../../src/app/context.ts';
import { TOOLS, selectTools } from '../../src/tools/index.ts';
import { createListedRegistry } from '../../src/tools/listed-registry.ts';
import { TOOL_LISTING } from '../../src/tools/listing.ts';
import { selectToolNames, TOOL_GROUPS, TOOL_NAMES } from '../../src/tools/names.ts';
import { createToolRegistry } from '../../src/tools/registry.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { testApp, textOf } from '../helpers/app.ts';

describe('the generated tool listing', () => {
  it('is what the declarations list (else: node --import tsx scripts/gen-tool-listing.ts)', () => {
    assert.deepEqual(TOOL_LISTING, createToolRegistry(TOOLS).list(), 'src/tools/listing.ts is stale: run node --import tsx scripts/gen-tool-listing.ts');
    assert.equal(runtime.fs.readTextFileSync(LISTING_FILE), listingSource(), 'src/tools/listing.ts is stale: run node --import tsx scripts/gen-tool-listing.ts');
  });

  it('names the tools in the declarations\' order, and the groups name only tools', () => {
    assert.deepEqual(TOOLS.map((t) => t.name), [...TOOL_NAMES]);
    for (const group of Object.values(TOOL_GROUPS)) for (const name of group) assert.ok((TOOL_NAMES as readonly string[]).includes(name), name);
  });

  it('selects the same tools by name as by declaration, and refuses an unknown name saying which exist', () => {
    for (const wanted of [undefined, ['gate'], ['ctx_run,read'], ['context', 'locate']]) {
      assert.deepEqual(selectToolNames(wanted, '--tools'), selectTools(wanted, '--tools').map((t) => t.name));
    }
    assert.throws(() => selectToolNames(['serch'], '--tools'), (e: Error & { hint?: string }) => /unknown tool 'serch'/.test(e.message) && /locate, read, search/.test(e.hint ?? ''));
  });
});

describe('a registry listed from the file', () => {
  const root = fixture({ 'src/a.ts': 'export function alphaWord(): number {\n  return 1;\n}\n' });
  const t = testApp(root);
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('lists the named tools only, in the usual order', () => {
    const listed = createListedRegistry(['search', 'read']);
    assert.deepEqual(listed.names, ['read', 'search']);
    assert.deepEqual(listed.list(), createToolRegistry(selectTools(['read', 'search'], 'x')).list());
    assert.deepEqual(listed.only(['search', 'ctx_run']).names, ['search']);
  });

  it('calls a tool, validates its arguments and refuses a tool it does not offer, as the declarations\' registry does', async () => {
    const listed = createListedRegistry(['locate', 'read']);
    const ctx = { app: t.app, session: createClientSession('listed'), signal: new AbortController().signal, progress: async () => undefined };
    assert.match(textOf(await listed.call('read', { target: 'alphaWord' }, ctx)), /return 1;/);
    const invalid = await listed.call('read', { target: 'alphaWord', bogus: 1 }, ctx);
    assert.equal(invalid.isError, true);
    assert.match(textOf(invalid), /unknown parameter 'bogus'/);
    const unknown = await listed.call('search', { pattern: 'alpha' }, ctx);
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /unknown tool 'search'[\s\S]*locate, read/);
    assert.deepEqual(await listed.loadHandlers(), []);
  });
});
