import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, textOf } from '../helpers/app.ts';
import { closeFixture, indexedFixture } from '../helpers/indexed.ts';

type Structured = Record<string, unknown>;
interface Result {
  file: string;
  line: number;
  kind: string;
  local?: string;
  declarations?: { file: string; line: number }[];
}

const FILES: Record<string, string> = {
  'src/escape.ts': `export function escape(input: string, options: { quote: boolean }): string {
  const escapedId = input.replace(/"/g, '\\\\"')
  const settings = { retries: 3, timeout: 10 }
  return options.quote ? \`"\${escapedId}"\` : escapedId + settings.retries
}

export enum Level {
  Debug,
  Verbose = 2,
}
`,
  // A real definition named like the locals, parameters, fields and members above.
  'src/names.ts': `/** The default input. */
export const input = ''

/** Retries of a request. */
export function retries(): number {
  return 3
}

export class Verbose {}
`,
  'include/list.h': `#ifndef LIST_H
#define LIST_H
struct list;
/* Adds an item to the list. */
int list_add(struct list *l, int item);
extern int list_count;
#ifdef CONFIG_LIST_DEL
int list_del(struct list *l);
#else
static inline int
list_del(struct list *l)
{
\treturn 0;
}
#endif
#endif
`,
  'lib/list.c': `#include "list.h"

extern int list_add(struct list *l, int item);

int list_count;

/* Appends item at the end of l; returns the new length. */
int list_add(struct list *l, int item)
{
\tint n = list_count + 1;
\tlist_count = n;
\treturn n;
}

int list_del(struct list *l)
{
\treturn --list_count;
}
`,
  'src/Function.ts': `/**
 * Pipes a value through functions. The implementation.
 */
export function pipe(a: unknown, ...fns: Array<(x: unknown) => unknown>): unknown {
  return fns.reduce((acc, f) => f(acc), a)
}
`,
  'src/Effect.ts': `import * as F from './Function.js'

/**
 * Pipes an effect through functions. Re-exported from Function for convenience.
 */
export const pipe = F.pipe
`,
  'src/Stream.ts': `export const pipe = (s: string) => s
`,
};

describe('every declaration is findable; C bodies before their declarations; several definitions', () => {
  let root: string;
  let t: TestApp;
  const call = async (tool: string, args: Record<string, unknown>) => {
    const r = await t.call(tool, args);
    return { text: textOf(r), structured: (r.structuredContent ?? {}) as Structured, isError: r.isError };
  };
  const locate = async (query: string) => {
    const r = await call('locate', { query, kind: 'definition' });
    return { text: r.text, results: (r.structured.results ?? []) as Result[] };
  };

  before(async () => {
    ({ t, root } = await indexedFixture(FILES));
  });
  after(() => closeFixture(t, root));

  it('locates a local binding inside a function, labelled as a local with the function it sits in', async () => {
    const r = await locate('escapedId');
    assert.equal(r.results.length, 1, r.text);
    assert.deepEqual([r.results[0]!.file, r.results[0]!.line, r.results[0]!.local], ['src/escape.ts', 2, 'local in escape']);
    assert.match(r.text, /^src\/escape\.ts:2 local [\d.]+ {2}local in escape: escapedId$/m);
  });

  it('locates a parameter, an object field and an enum member, each below a real definition of the same name elsewhere', async () => {
    const cases: [string, string, number, string][] = [
      ['input', 'src/names.ts', 2, 'parameter of escape'],
      ['retries', 'src/names.ts', 5, 'field in escape'],
      ['Verbose', 'src/names.ts', 9, 'member of Level'],
    ];
    for (const [name, file, line, local] of cases) {
      const r = await locate(name);
      assert.deepEqual([r.results[0]?.file, r.results[0]?.line, r.results[0]?.local], [file, line, undefined], `${name}: the real definition first\n${r.text}`);
      const own = r.results.find((x) => x.file === 'src/escape.ts');
      assert.equal(own?.local, local, `${name}: its declaration in escape.ts is listed, as a local\n${r.text}`);
      assert.ok(r.results.indexOf(own!) > 0);
    }
    // A member with no namesake elsewhere is the answer on its own.
    const debug = await locate('Debug');
    assert.deepEqual([debug.results[0]?.file, debug.results[0]?.line, debug.results[0]?.local], ['src/escape.ts', 8, 'member of Level']);
  });

  it('reads a local as the function holding it, saying where it is declared', async () => {
    const r = await call('read', { target: 'escapedId' });
    assert.match(r.text, /^\(local in escape: escapedId declared at line 2\)\nsrc\/escape\.ts:1-5\nexport function escape/);
  });

  it('explores a local by saying what it is and where, and which definition to explore instead', async () => {
    const r = await call('explore', { question: 'what does escapedId call?', anchor: 'escapedId', relation: 'callees' });
    assert.match(r.text, /escapedId is no definition of its own: local in escape at src\/escape\.ts:2; explore escape/);
  });

  it('locates a C function at its body, its header prototype and extern declaration listed as declared-in lines', async () => {
    const r = await locate('list_add');
    assert.equal(r.results.length, 1, r.text);
    assert.deepEqual([r.results[0]!.file, r.results[0]!.line], ['lib/list.c', 8]);
    assert.deepEqual(r.results[0]!.declarations, [
      { file: 'include/list.h', line: 5 },
      { file: 'lib/list.c', line: 3 },
    ]);
    assert.match(r.text, /^lib\/list\.c:8-13 definition [\d.]+ {2}int list_add\(struct list \*l, int item\)\n {4}declared in include\/list\.h:5\n {4}declared in lib\/list\.c:3$/m);
    const variable = await locate('list_count');
    assert.deepEqual(
      variable.results.map((x) => [x.file, x.line, x.declarations]),
      [['lib/list.c', 5, [{ file: 'include/list.h', line: 6 }]]],
      variable.text,
    );
  });

  it('locates a C function at its body before a header\'s static inline stub of the same name, the prototype under the body', async () => {
    const r = await locate('list_del');
    assert.deepEqual(
      r.results.map((x) => [x.file, x.line, x.declarations]),
      [
        ['lib/list.c', 15, [{ file: 'include/list.h', line: 8 }]],
        ['include/list.h', 11, undefined],
      ],
      r.text,
    );
  });

  it('reads a C function as its body with the places that declare it', async () => {
    const r = await call('read', { target: 'list_add' });
    assert.match(r.text, /^lib\/list\.c:7-13\n\/\* Appends item[\s\S]*\n\}\ndeclared in include\/list\.h:5\ndeclared in lib\/list\.c:3$/);
  });

  it('reads the best of several definitions whole and lists each other one on a line with its kind and first doc sentence', async () => {
    const r = await call('read', { target: 'pipe' });
    const [head, ...rest] = r.text.split('\n');
    assert.equal(head, 'src/Function.ts:1-6');
    const text = rest.join('\n');
    assert.match(text, /^\/\*\*\n \* Pipes a value through functions\. The implementation\.\n \*\/\nexport function pipe[\s\S]*\n\}\n2 other definitions of pipe:\n/);
    assert.match(text, /\n {2}src\/Effect\.ts:6 const — Pipes an effect through functions\.(\n|$)/);
    assert.match(text, /\n {2}src\/Stream\.ts:1 function(\n|$)/);
  });
});
