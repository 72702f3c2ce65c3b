import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expandBlock, outline } from '../../src/retrieval/block.ts';
import { kindOfLine, definesSymbol, isTestPath } from '../../src/retrieval/kinds.ts';
import { kindsByLine } from '../../src/retrieval/fileio.ts';
import { queryShape } from '../../src/retrieval/query.ts';
import type { Hit } from '../../src/retrieval/types.ts';

describe('query shapes', () => {
  it('routes identifiers, phrases and patterns', () => {
    assert.equal(queryShape('OrderHandler'), 'symbol');
    assert.equal(queryShape('OrderHandler.handle'), 'symbol');
    assert.equal(queryShape('payment retry logic'), 'phrase');
    assert.equal(queryShape('retry.*count'), 'pattern');
    assert.equal(queryShape('anything', true), 'pattern');
  });
});

describe('kind classification', () => {
  const defs: [string, string, string][] = [
    ['a.ts', 'export class OrderHandler {', 'OrderHandler'],
    ['a.ts', 'export default async function load(x) {', 'load'],
    ['a.ts', '  handle(order: Order): number {', 'handle'],
    ['a.ts', '  private async handle(order: Order): Promise<void> {', 'handle'],
    ['a.ts', 'export const parse = (s: string) => s;', 'parse'],
    ['a.ts', 'export interface Order {', 'Order'],
    ['a.ts', 'type Id = string;', 'Id'],
    ['a.py', 'def apply_discount(cart, percent):', 'apply_discount'],
    ['a.py', '    async def fetch(self):', 'fetch'],
    ['a.py', 'class Cart:', 'Cart'],
    ['a.go', 'func (s *Store) Put(key string, value int) error {', 'Put'],
    ['a.go', 'type Store struct {', 'Store'],
    ['a.rs', '    pub fn parse_number(&self) -> Option<i64> {', 'parse_number'],
    ['a.rs', 'impl Parser {', 'Parser'],
    ['a.rs', 'pub struct Parser {', 'Parser'],
    ['a.c', 'static int vfs_read(struct file *file, char *buf)', 'vfs_read'],
    ['a.c', '#define MAX_ORDERS 10', 'MAX_ORDERS'],
  ];
  it('finds definitions in TS, Python, Go, Rust and C', () => {
    for (const [file, line, name] of defs) assert.equal(kindOfLine(file, line, line.indexOf(name), name), 'definition', line);
  });

  it('does not take imports, calls, returns or assignments through a call for definitions', () => {
    for (const line of ["import { type OrderHandler } from './x';", 'const h = new OrderHandler();', 'return handle(order);', 'from shop.cart import Cart', 'use crate::Parser;']) {
      const name = /OrderHandler|handle|Cart|Parser/.exec(line)![0];
      assert.equal(definesSymbol(line, name), false, line);
    }
  });

  it('names calls, references, comments, strings and tests', () => {
    assert.equal(kindOfLine('a.ts', '  return handler.handle({ id });', 17, 'handle'), 'call');
    assert.equal(kindOfLine('a.ts', 'let x: OrderHandler;', 7, 'OrderHandler'), 'reference');
    assert.equal(kindOfLine('a.ts', '  // OrderHandler cancels here', 5, 'OrderHandler'), 'comment');
    assert.equal(kindOfLine('a.py', '# apply_discount lowers prices', 2, 'apply_discount'), 'comment');
    assert.equal(kindOfLine('a.ts', "const s = 'calling OrderHandler';", 19, 'OrderHandler'), 'string');
    assert.equal(kindOfLine('test/a.test.ts', 'new OrderHandler()', 4, 'OrderHandler'), 'test');
    for (const p of ['src/a_test.go', 'pkg/x.spec.ts', 'tests/test_cart.py', '__tests__/a.js', 'src/FooTest.java']) assert.equal(isTestPath(p), true, p);
    assert.equal(isTestPath('src/contest.ts'), false);
  });

  it('leaves definitions in parsed files to the code index when asked, and finds them by line again when it cannot answer', () => {
    const line = 'static int vfs_fsync_range(struct file *file, loff_t start)';
    assert.equal(kindOfLine('fs/sync.c', line, 11, 'vfs_fsync_range'), 'definition');
    assert.equal(kindOfLine('fs/sync.c', line, 11, 'vfs_fsync_range', false), 'call', 'the index says which lines define it');
    const hits: Hit[] = [
      { file: 'fs/sync.c', line: 1, text: line, matchIndex: 11, kind: 'call', source: 'fileio' },
      { file: 'notes.txt', line: 1, text: 'vfs_fsync_range(file)', matchIndex: 0, kind: 'comment', source: 'fileio' },
    ];
    assert.deepEqual(
      kindsByLine(hits, 'vfs_fsync_range').map((h) => h.kind),
      ['definition', 'comment'],
      'a file without a grammar keeps its kind',
    );
  });
});

describe('expandBlock', () => {
  it('returns a whole method, with its doc comment, in brace languages', () => {
    const lines = ['class A {', '  /** Doc. */', '  handle(x) {', '    if (x) {', '      return { a: 1 };', '    }', '  }', '', '  other() {}', '}'];
    assert.deepEqual(expandBlock(lines, 3, 'a.ts'), { start: 2, end: 7 });
    assert.deepEqual(expandBlock(lines, 5, 'a.ts'), { start: 4, end: 6 }, 'innermost block around an inner line');
    assert.deepEqual(expandBlock(lines, 1, 'a.ts'), { start: 1, end: 10 });
  });

  it('takes a body that opens on the next line (K&R C, Allman, long signatures)', () => {
    const lines = ['ssize_t vfs_read(struct file *file, char *buf,', '\t\t size_t count)', '{', '\treturn 0;', '}', '', 'int other(void)', '{', '}'];
    assert.deepEqual(expandBlock(lines, 1, 'a.c'), { start: 1, end: 5 });
    assert.deepEqual(expandBlock(lines, 7, 'a.c'), { start: 7, end: 9 });
    assert.deepEqual(expandBlock(['int x;', '{', '}'], 1, 'a.c'), { start: 1, end: 1 }, 'a statement above a block is not its header');
  });

  it('ignores braces in strings and comments', () => {
    const lines = ['function f() {', "  const s = '}';", '  // }', '  return s;', '}'];
    assert.deepEqual(expandBlock(lines, 1, 'a.js'), { start: 1, end: 5 });
  });

  it('follows indentation in Python, decorators included', () => {
    const lines = ['class Cart:', '    @property', '    def total(self):', '        x = 1', '', '        return x', '', '    def other(self):', '        pass'];
    assert.deepEqual(expandBlock(lines, 3, 'a.py'), { start: 2, end: 6 });
    assert.deepEqual(expandBlock(lines, 4, 'a.py'), { start: 2, end: 6 });
    assert.deepEqual(expandBlock(lines, 1, 'a.py'), { start: 1, end: 9 });
  });

  it('takes a markdown section up to the next heading of the same level', () => {
    const lines = ['# A', 'intro', '## B', 'text', '### C', 'more', '## D', 'end'];
    assert.deepEqual(expandBlock(lines, 4, 'x.md'), { start: 3, end: 6 });
  });

  it('outlines a file by its definitions', () => {
    const o = outline(['import x', 'export class A {', '  m() {}', '}', 'export function f() {}']);
    assert.deepEqual(o.map((x) => x.line), [2, 5]);
  });
});
