// The call resolver reads a file's imports only where they can bind a name: a C or C++ include binds
// none (it is stored with no names), so resolving the calls of a kernel function in a hundred files
// asked the database for each file's includes for nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importsBindNames } from '../../src/code/extract-imports.ts';
import { CallResolver } from '../../src/code/graph-calls.ts';
import type { CodeStore, DefinitionRow, ImportRow } from '../../src/code/store.ts';

let ids = 0;
function def(file: string, name: string): DefinitionRow {
  return { id: ++ids, path: file, name, kind: 'function', container: null, parent_id: null, signature: `void ${name}(void)`, start_line: 1, name_line: 1, end_line: 3, exported: 1, bodiless: 0, bases: null };
}

/** A store holding one definition of `helper` and the given import rows; it records which files' imports were read. */
function storeWith(imports: Record<string, ImportRow[]>): { store: CodeStore; read: string[] } {
  const read: string[] = [];
  const store = {
    definitionsNamed: (name: string) => (name === 'helper' ? [def('lib/helper.ts', 'helper'), def('include/helper.h', 'helper')] : []),
    importsOf: (file: string) => {
      read.push(file);
      return imports[file] ?? [];
    },
    file: () => undefined,
  } as unknown as CodeStore;
  return { store, read };
}

describe('the call resolver and imports that bind no name', () => {
  it('knows which languages bind names by their imports', () => {
    for (const l of ['typescript', 'tsx', 'javascript', 'python', 'go', 'java'] as const) assert.equal(importsBindNames(l), true, l);
    for (const l of ['c', 'cpp', 'rust', 'ruby'] as const) assert.equal(importsBindNames(l), false, l);
  });

  it('does not read a C or C++ file’s includes, and resolves its calls as before', () => {
    const { store, read } = storeWith({ 'drivers/a.c': [{ path: 'drivers/a.c', line: 1, source: 'helper.h', target: 'include/helper.h', names: '' } as ImportRow] });
    const resolver = new CallResolver(store);
    const found = resolver.resolve('drivers/a.c', 'helper', null, null);
    assert.equal(found?.certainty, 'name-only');
    assert.deepEqual(resolver.resolve('drivers/b.cpp', 'helper', null, null)?.certainty, 'name-only');
    assert.deepEqual(read, []);
  });

  it('reads a TypeScript file’s imports, which bind the name to its module', () => {
    const { store, read } = storeWith({ 'app/main.ts': [{ path: 'app/main.ts', line: 1, source: '../lib/helper.js', target: 'lib/helper.ts', names: 'helper=helper' } as ImportRow] });
    const resolver = new CallResolver(store);
    const found = resolver.resolve('app/main.ts', 'helper', null, null);
    assert.equal(found?.certainty, 'imported');
    assert.deepEqual(found?.defs.map((d) => d.file), ['lib/helper.ts']);
    assert.deepEqual(read, ['app/main.ts']);
  });
});
