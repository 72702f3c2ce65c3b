import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Node } from 'web-tree-sitter';
import { scopeFinder } from '../../src/code/call-syntax.ts';
import { type Extracted, extract } from '../../src/code/extract.ts';
import { createGrammars } from '../../src/code/grammars.ts';
import type { LanguageId } from '../../src/code/languages.ts';
import { runtime } from '../helpers/env.ts';
import { SAMPLES } from './samples.ts';

const grammars = createGrammars(runtime);

async function of(language: LanguageId, text = SAMPLES[language].text): Promise<Extracted> {
  const bad: string[] = [];
  const r = await extract(grammars, language, text, { onBadPattern: (p) => bad.push(p) });
  assert.deepEqual(bad, [], `every ${language} query pattern compiles`);
  return r;
}

const defs = (r: Extracted) => r.definitions.map((d) => `${d.container ? `${d.container}.` : ''}${d.name} ${d.kind} ${d.startLine}-${d.endLine}`);
const calls = (r: Extracted) => r.references.filter((x) => x.kind === 'call').map((x) => `${x.name}@${x.line} in ${x.enclosing === undefined ? '-' : r.definitions[x.enclosing]!.name}`);

describe('definitions, calls and imports from each language', () => {
  const expected: Record<LanguageId, { defs: string[]; calls: string[]; imports: string[] }> = {
    typescript: {
      defs: ['OrderHandler class 3-8', 'OrderHandler.handle method 5-7', 'checkout function 10-12', 'total function 14-14'],
      calls: ['push@6 in handle', 'OrderHandler@11 in checkout', 'handle@11 in checkout', 'reduce@14 in total'],
      imports: ['./queue'],
    },
    tsx: { defs: ['View function 3-5'], calls: ['render@4 in View'], imports: ['./dom'] },
    javascript: { defs: ['Cart class 3-7', 'Cart.add method 4-6', 'checkout function 9-11'], calls: ['require@1 in -', 'sum@5 in add', 'add@10 in checkout'], imports: ['./math'] },
    python: { defs: ['Cart class 3-7', 'Cart.add_item method 4-7', 'checkout function 9-10'], calls: ['discount@7 in add_item', 'add_item@10 in checkout'], imports: ['.pricing'] },
    go: { defs: ['Store struct 5-8', 'Store.items field 7-7', 'Store.Put method 10-13', 'NewStore function 15-17'], calls: ['Println@11 in Put'], imports: ['fmt'] },
    rust: {
      defs: ['Parser struct 3-6', 'Parser.input field 5-5', 'Parser impl 8-12', 'Parser.parse_number method 9-11', 'parse_all function 14-16'],
      calls: ['parse@10 in parse_number', 'ok@10 in parse_number', 'parse_number@15 in parse_all', 'unwrap_or@15 in parse_all'],
      imports: ['parser'],
    },
    java: { defs: ['Orders class 3-8', 'Orders.handle method 4-7'], calls: ['push@6 in handle'], imports: ['java.util.List'] },
    csharp: { defs: ['Shop namespace 3-9', 'Shop.Orders class 4-8', 'Orders.Handle method 5-7'], calls: ['Push@6 in Handle'], imports: ['System'] },
    c: { defs: ['list_add function 3-8', 'list_sum function 10-14'], calls: ['grow@6 in list_add', 'list_add@12 in list_sum'], imports: ['list.h'] },
    cpp: { defs: ['ds namespace 3-12', 'ds.List class 4-7', 'List.add prototype 6-6', 'List.add method 9-11'], calls: ['grow@10 in add'], imports: ['list.hpp'] },
    ruby: { defs: ['Cart class 3-8', 'Cart.add_item method 4-7'], calls: ['require@1 in -', 'push@6 in add_item'], imports: ['json'] },
    php: { defs: ['Cart class 4-8', 'Cart.addItem method 5-7', 'checkout function 10-12'], calls: ['push@6 in addItem', 'addItem@11 in checkout'], imports: ['App\\Pricing'] },
  };
  for (const [language, want] of Object.entries(expected) as [LanguageId, (typeof expected)[LanguageId]][]) {
    it(`finds ${language} definitions with their containers and whole ranges, calls with their enclosing function, and imports`, async () => {
      const r = await of(language);
      assert.deepEqual(defs(r), want.defs);
      assert.deepEqual(calls(r), want.calls);
      assert.deepEqual(
        r.imports.map((i) => i.source),
        want.imports,
      );
    });
  }

  it('keeps doc comments and decorators in a definition\'s range, and its signature without the body', async () => {
    const r = await of('typescript', '/**\n * Adds.\n */\nexport function add(\n  a: number,\n  b: number,\n): number {\n  return a + b;\n}\n');
    const add = r.definitions[0]!;
    assert.equal(add.startLine, 1);
    assert.equal(add.nameLine, 4);
    assert.equal(add.endLine, 9);
    assert.equal(add.signature, 'function add( a: number, b: number, ): number');
    assert.match(add.doc, /Adds\./);
    assert.equal(add.exported, true);
  });

  it('takes a Python docstring (module, class, function) for the doc, and never an f-string, a bytes literal or a later string', async () => {
    const text = [
      '#!/usr/bin/env python3',
      '# Copyright line, not the doc.',
      'r"""Retry helpers for flaky payments.',
      '',
      'More about them."""',
      'import time',
      '',
      '',
      'class Backoff:',
      '    # a comment before the docstring does not hide it',
      '    "Waits " \'longer each time.\'',
      '',
      '    # Above the method.',
      '    def delay(self, attempt):',
      '        """Return the seconds to wait before the given attempt."""',
      '        return 2 ** attempt',
      '',
      '    def formatted(self):',
      '        f"""Not a docstring {self}."""',
      '',
      '    def raw(self):',
      '        b"""Not a docstring either."""',
      '',
      '    def later(self):',
      '        x = 1',
      '        """Not the first statement."""',
      '',
    ].join('\n');
    const r = await extract(grammars, 'python', text, { file: 'payments/retry.py' });
    const doc = (name: string) => r.definitions.find((d) => d.name === name)?.doc;
    assert.equal(doc('Backoff'), 'Waits longer each time.');
    assert.equal(doc('delay'), '# Above the method.\nReturn the seconds to wait before the given attempt.');
    assert.equal(doc('formatted'), '');
    assert.equal(doc('raw'), '');
    assert.equal(doc('later'), '');
    const module = r.definitions.find((d) => d.kind === 'module');
    assert.deepEqual(
      module && [module.name, module.startLine, module.nameLine, module.endLine, module.doc, module.searchable, module.parent],
      ['retry', 3, 3, 5, 'Retry helpers for flaky payments.\n\nMore about them.', true, undefined],
    );
    // The module's docstring holds no definition: the class stays top level, its methods its own.
    assert.equal(r.definitions.find((d) => d.name === 'Backoff')?.parent, undefined);
    assert.equal(r.definitions.find((d) => d.name === 'delay')?.container, 'Backoff');
    assert.equal((await extract(grammars, 'python', '"""Package doc."""\n', { file: 'payments/__init__.py' })).definitions[0]?.name, 'payments');
    assert.deepEqual((await of('python', '# only a comment\nx = "not a docstring"\n')).definitions.map((d) => d.kind), ['variable']);
  });

  it('marks overload signatures as bodiless, next to their implementation', async () => {
    const r = await of('typescript', 'export function pipe<A>(a: A): A\nexport function pipe<A, B>(a: A, ab: (a: A) => B): B\nexport function pipe(a: unknown, ab?: Function): unknown {\n  return ab ? ab(a) : a\n}\n');
    assert.deepEqual(
      r.definitions.map((d) => [d.name, d.nameLine, d.bodiless]),
      [
        ['pipe', 1, true],
        ['pipe', 2, true],
        ['pipe', 3, false],
      ],
    );
  });

  it('gives interface members their own line, not the whole interface', async () => {
    const r = await of('typescript', 'export interface Pipeable {\n  pipe<A>(this: A): A\n  readonly size: number\n}\n');
    assert.deepEqual(defs(r), ['Pipeable interface 1-4', 'Pipeable.pipe method 2-2', 'Pipeable.size field 3-3']);
  });

  it('tells calls, type uses, imports and mentions in comments apart', async () => {
    const r = await of('typescript', "import { make } from './make';\n// make() builds one; see makeThing\nexport const thing: Thing = make(1);\n");
    const kinds = r.references.map((x) => `${x.kind}:${x.name}@${x.line}`);
    assert.deepEqual(kinds.sort(), ['call:make@3', 'import:make@1', 'mention:make@2', 'mention:makeThing@2', 'type:Thing@3'].sort());
  });

  it('finds kernel-style C functions behind attribute macros, and takes no forward declaration for a struct', async () => {
    const text = [
      '#ifndef X_H',
      'struct task_struct;',
      '',
      'extern struct task_struct *__current;',
      '',
      '/* Runs the scheduler. */',
      'asmlinkage __visible void __sched schedule(void)',
      '{',
      '\tstruct task_struct *tsk = current;',
      '\t__schedule(SM_NONE);',
      '}',
      '',
      'static __always_inline __alloc_size(1) void *kmalloc(size_t size,',
      '\t\tgfp_t flags)',
      '{',
      '\treturn __kmalloc(size, flags);',
      '}',
      '#endif',
      '',
    ].join('\n');
    const r = await of('c', text);
    assert.deepEqual(
      r.definitions.filter((d) => !d.bodiless).map((d) => `${d.name} ${d.kind} ${d.startLine}-${d.endLine}`),
      ['schedule function 6-11', 'kmalloc function 13-17'],
    );
    // An extern declaration is kept, as a declaration (no body): its definition is elsewhere.
    assert.deepEqual(
      r.definitions.filter((d) => d.bodiless && d.kind !== 'prototype').map((d) => `${d.name} ${d.kind} ${d.nameLine}`),
      ['__current variable 4'],
    );
  });

  it('survives a construct the grammar cannot parse: the rest of the file is still indexed', async () => {
    // The TypeScript grammar does not parse call signatures with type parameters in an object type
    // (effect's Function.ts): its error recovery would swallow the file.
    const broken = 'export const dual: {\n  <A extends (...args: Array<any>) => any>(arity: number, body: A): A\n} = function(arity, body) {\n  return body\n}\n\n/** Pipes. */\nexport function pipe(a: unknown): unknown {\n  return a\n}\n';
    const r = await of('typescript', broken);
    const pipe = r.definitions.find((d) => d.name === 'pipe');
    assert.ok(pipe, defs(r).join(', '));
    assert.equal(pipe.startLine, 7);
    assert.equal(pipe.endLine, 10);
  });
});

describe('declarations that are no definition of their own', () => {
  const locals = (r: Extracted) => r.locals.map((l) => `${l.name} ${l.kind} ${l.line} in ${l.enclosing === undefined ? '-' : r.definitions[l.enclosing]!.name}`);
  const cases: [LanguageId, string, string[]][] = [
    [
      'typescript',
      'export function escape(s: string, { a }: O, opts?: { quote: boolean }) {\n  const escapedId = s\n  for (const k of s) { try {} catch (err) {} }\n  return [1].map((v) => ({ key: v }))\n}\nenum Color { Red, Green = 2 }\n',
      ['s parameter 1 in escape', 'a parameter 1 in escape', 'opts parameter 1 in escape', 'quote field 1 in escape', 'escapedId local 2 in escape', 'k local 3 in escape', 'err local 3 in escape', 'v parameter 4 in escape', 'key field 4 in escape', 'Red member 6 in Color', 'Green member 6 in Color'],
    ],
    ['javascript', 'function add(a, b = 1) {\n  let total = a + b\n  return total\n}\n', ['a parameter 1 in add', 'b parameter 1 in add', 'total local 2 in add']],
    ['python', 'def f(a, *args, c: int = 2):\n    total = a\n\nclass K:\n    def __init__(self):\n        self.size = 0\n', ['a parameter 1 in f', 'args parameter 1 in f', 'c parameter 1 in f', 'total local 2 in f', 'self parameter 5 in __init__', 'size field 6 in __init__']],
    ['go', 'package p\n\nfunc F(a int) int {\n\tx := a\n\tvar y = x\n\treturn y\n}\n', ['a parameter 3 in F', 'x local 4 in F', 'y local 5 in F']],
    ['rust', 'enum Shape { Circle }\nfn area(s: Shape) -> f64 {\n    let scale = 2.0;\n    0.0\n}\n', ['Circle member 1 in Shape', 's parameter 2 in area', 'scale local 3 in area']],
    ['java', 'enum Color { RED }\nclass A { int m(int a) { int b = a; return b; } }\n', ['RED member 1 in Color', 'a parameter 2 in m', 'b local 2 in m']],
    // A prototype's and a function pointer's parameters declare nothing; a struct's fields do.
    ['c', 'struct ops { int (*open)(int fd); char *name; };\nint add(int a, int *b);\nint add(int a, int *b) { int total = a; return total; }\n', ['open field 1 in ops', 'name field 1 in ops', 'a parameter 3 in add', 'b parameter 3 in add', 'total local 3 in add']],
    ['cpp', 'enum class Color { Red };\nint add(int a, int &b) { int total = a; return total; }\n', ['Red member 1 in Color', 'a parameter 2 in add', 'b parameter 2 in add', 'total local 2 in add']],
  ];
  for (const [language, text, want] of cases) {
    it(`finds ${language} locals, parameters, fields and enum members, each with the definition it sits in`, async () => {
      const r = await of(language, text);
      assert.deepEqual(locals(r), want);
      // None of them is also a definition.
      for (const l of r.locals) assert.ok(!r.definitions.some((d) => d.name === l.name && d.nameLine === l.line), l.name);
    });
  }
});

describe('the scope a name is bound in', () => {
  it('is the one a walk to the root finds, for every node of a file, whatever order the walks come in', async () => {
    const { parser } = await grammars.parser('typescript');
    const text = [
      'const top = 1',
      'export class Shop {',
      '  items: number[] = []',
      '  add(n: number) {',
      '    const twice = (k: number) => { const m = k * 2; return m }',
      '    function inner(q: number) { let z = q; return z }',
      '    return twice(n) + inner(n)',
      '  }',
      '}',
      'export function run(a: number) { for (const b of [a]) { const c = b } }',
    ].join('\n');
    const tree = parser.parse(text)!;
    const nodes: Node[] = [];
    const walk = (n: Node) => {
      nodes.push(n);
      for (const c of n.children) if (c) walk(c);
    };
    walk(tree.rootNode);
    const naive = (n: Node) => {
      for (let p = n.parent; p; p = p.parent) {
        if (/^(function_declaration|arrow_function|method_definition|function_expression)$/.test(p.type)) return `function ${p.startIndex}`;
        if (p.type === 'class_body') return `class ${p.startIndex}`;
      }
      return 'module 0';
    };
    const label = (s: { node: Node; kind: string }) => `${s.kind} ${s.node.startIndex}`;
    // In document order, then deepest first: walks stop where earlier ones passed.
    for (const order of [nodes, [...nodes].reverse()]) {
      const scopeIn = scopeFinder();
      for (const n of order) assert.equal(label(scopeIn(n)), naive(n), `${n.type} at ${n.startIndex}`);
    }
    tree.delete();
  });
});
