import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { calleesOf, findDefinitions, usesOf } from '../../src/code/graph.ts';
import { type CodeIndex, PARSER_VERSION } from '../../src/code/index.ts';
import { CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { builtIndex, testDir } from '../helpers/code-index.ts';
import { runtime } from '../helpers/env.ts';

/** Calls of Owner.method as `file:line certainty`, in order. */
async function callers(index: CodeIndex, name: string, owner?: string): Promise<string[]> {
  const u = await usesOf(index, name, owner);
  assert.ok(u, 'the index answers');
  return u.uses.filter((x) => x.kind === 'call').map((x) => `${x.file}:${x.line} ${x.certainty}`);
}

/** Callees of a definition as `qualifier.name → file certainty` (or `local` / `none`). */
async function callees(index: CodeIndex, name: string, owner?: string): Promise<string[]> {
  const def = (await findDefinitions(index, name, owner))?.[0];
  assert.ok(def, `${name} is defined`);
  const list = await calleesOf(index, def);
  assert.ok(list);
  return list
    .map((c) => `${c.qualifier ? `${c.qualifier}.` : ''}${c.name} → ${c.local ? 'local' : c.definedAt[0] ? `${c.definedAt[0].file} ${c.definedAt[0].certainty}` : 'none'}`)
    .sort();
}

describe('calls resolved to their definitions', () => {
  describe('TypeScript', () => {
    const files = {
      'src/core.ts': 'export function flatMap() {}\nexport function succeed() {}\n',
      'src/Cause.ts': 'export function flatMap() {}\n',
      'src/index.ts': "export * from './core.js'\nexport { flatMap as chain } from './core.js'\n",
      'src/Effect.ts': [
        "import * as core from './core.js'",
        "import { succeed as ok, chain } from './index.js'",
        'export function succeed() {}',
        'export const run = (next: () => void) => {',
        '  core.flatMap()',
        '  core.succeed()',
        '  ok()',
        '  chain()',
        '  next()',
        '  Math.min(1, 2)',
        '  return [1].map((x) => x)',
        '}',
        '',
      ].join('\n'),
      'src/shapes.ts': [
        'export class Shape {',
        '  area() { return 0 }',
        '  describe() { return this.area() }',
        '}',
        'export class Square extends Shape {',
        '  area() { return 4 }',
        '}',
        'export class Table {',
        '  area() { return 1 }',
        '}',
        'export function use(s: Square, t: Table) {',
        '  s.describe()',
        '  t.area()',
        '  const q = new Square()',
        '  q.area()',
        '}',
        '',
      ].join('\n'),
    };

    it('follows a namespace import, a named import through re-exports and export *, and leaves locals and outside calls without a project location', async () => {
      const index = await builtIndex(files);
      assert.deepEqual(await callees(index, 'run'), [
        'Math.min → none',
        'chain → src/core.ts imported',
        'core.flatMap → src/core.ts imported',
        'core.succeed → src/core.ts imported',
        'map → none',
        'next → local',
        'ok → src/core.ts imported',
      ]);
    });

    it('gives a call through a typed parameter or a constructed variable to its class, inherited methods included, and not to a same-named method of another class', async () => {
      const index = await builtIndex(files);
      assert.deepEqual(await callers(index, 'describe', 'Shape'), ['src/shapes.ts:12 receiver-type']);
      assert.deepEqual(await callers(index, 'area', 'Table'), ['src/shapes.ts:13 receiver-type']);
      assert.deepEqual(await callers(index, 'area', 'Square'), ['src/shapes.ts:3 override', 'src/shapes.ts:15 receiver-type']);
      assert.deepEqual(await callers(index, 'area', 'Shape'), ['src/shapes.ts:3 receiver-type']);
    });

    it('gives every use row of the name unresolved when only the kinds are wanted (a literal search labelling its lines)', async () => {
      const index = await builtIndex(files);
      const within = new Set(['src/shapes.ts']);
      const all = await usesOf(index, 'area', undefined, within, { kindsOnly: true });
      assert.ok(all);
      assert.deepEqual(all.definitions, []);
      // Every call of `area` in the file, whichever class's it is: the lines call the name.
      assert.deepEqual(
        all.uses.map((u) => `${u.file}:${u.line} ${u.kind} ${u.certainty}`),
        ['src/shapes.ts:3 call name-only', 'src/shapes.ts:13 call name-only', 'src/shapes.ts:15 call name-only'],
      );
      // Resolved, Table's area is called on line 13 only.
      const table = await usesOf(index, 'area', 'Table', within);
      assert.deepEqual(table?.uses.map((u) => u.line), [13]);
    });
  });

  describe('Python', () => {
    const files = {
      'pkg/__init__.py': '',
      'pkg/models.py': [
        'class Base:',
        '    def save(self):',
        '        pass',
        '    def run(self):',
        '        self.save()',
        'class User(Base):',
        '    def save(self):',
        '        super().save()',
        'class Other:',
        '    def save(self):',
        '        pass',
        'def helper():',
        '    pass',
        '',
      ].join('\n'),
      'pkg/app.py': [
        'from .models import User, Other',
        'from . import models',
        'def main(o: Other, cb):',
        '    u = User()',
        '    u.save()',
        '    o.save()',
        '    models.helper()',
        '    cb()',
        '',
      ].join('\n'),
    };

    it('resolves self, super(), annotations and constructor assignments; a same-named method of an unrelated class is not a caller', async () => {
      const index = await builtIndex(files);
      // Base.run's self.save() may run User's override: a labelled candidate.
      assert.deepEqual(await callers(index, 'save', 'User'), ['pkg/app.py:5 receiver-type', 'pkg/models.py:5 override']);
      assert.deepEqual(await callers(index, 'save', 'Other'), ['pkg/app.py:6 receiver-type']);
      assert.deepEqual(await callers(index, 'save', 'Base'), ['pkg/models.py:5 receiver-type', 'pkg/models.py:8 receiver-type']);
    });

    it('follows `from . import module` to the module, and a parameter called as a function is a local', async () => {
      const index = await builtIndex(files);
      assert.deepEqual(await callees(index, 'main'), ['User → pkg/models.py imported', 'cb → local', 'models.helper → pkg/models.py imported', 'o.save → pkg/models.py receiver-type', 'u.save → pkg/models.py receiver-type']);
    });
  });

  describe('Go', () => {
    const files = {
      'go.mod': 'module example.com/m\n\ngo 1.21\n',
      'store/store.go': [
        'package store',
        '',
        'type Base struct{}',
        '',
        'func (b *Base) Close() {}',
        '',
        'type DB struct{}',
        '',
        'func (d *DB) Close() {}',
        '',
        'type Store struct {',
        '\tBase',
        '\tdb *DB',
        '}',
        '',
        'func (s *Store) Put() {',
        '\ts.db.Close()',
        '\thelper()',
        '}',
        '',
      ].join('\n'),
      'store/util.go': 'package store\n\nfunc helper() {}\n\nfunc New() *Store { return nil }\n',
      'app/main.go': ['package app', '', 'import "example.com/m/store"', '', 'func Run(s *store.Store) {', '\ts.Close()', '\tstore.New()', '}', ''].join('\n'),
    };

    it('reaches a method through an embedded struct and a field of a known type, and tells the two Close methods apart', async () => {
      const index = await builtIndex(files);
      assert.deepEqual(await callers(index, 'Close', 'Base'), ['app/main.go:6 receiver-type']);
      assert.deepEqual(await callers(index, 'Close', 'DB'), ['store/store.go:17 receiver-type']);
    });

    it('resolves same-package functions and package-qualified calls', async () => {
      const index = await builtIndex(files);
      assert.deepEqual(await callees(index, 'Put'), ['db.Close → store/store.go receiver-type', 'helper → store/util.go same-package']);
      assert.deepEqual(await callees(index, 'Run'), ['s.Close → store/store.go receiver-type', 'store.New → store/util.go imported']);
    });
  });

  describe('Java', () => {
    const files = {
      'src/a/Base.java': 'package a;\n\npublic class Base {\n  public int get() { return 0; }\n}\n',
      'src/a/Box.java': ['package a;', '', 'public class Box extends Base {', '  int size() { return get(); }', '  class Inner {', '    int k() { return size(); }', '  }', '}', ''].join('\n'),
      'src/b/Other.java': ['package b;', '', 'public class Other {', '  public int get() { return 1; }', '  int run() { return get(); }', '}', ''].join('\n'),
      'src/b/Use.java': ['package b;', '', 'import a.Box;', '', 'class Use {', '  void m(Box box) { box.get(); }', '}', ''].join('\n'),
    };

    it("gives implicit `this` calls to the enclosing class's hierarchy (nested classes reach the outer one), never to every owner of the name", async () => {
      const index = await builtIndex(files);
      assert.deepEqual(await callers(index, 'get', 'Base'), ['src/a/Box.java:4 receiver-type', 'src/b/Use.java:6 receiver-type']);
      assert.deepEqual(await callers(index, 'get', 'Other'), ['src/b/Other.java:5 receiver-type']);
      assert.deepEqual(await callers(index, 'size', 'Box'), ['src/a/Box.java:6 receiver-type']);
    });

    it('works on an index database from before call resolution (schema 5, parser version 7), upgraded in place and parsed again', async () => {
      const dbFile = path.join(testDir(), 'code.db');
      const root = testDir(files);
      // What schema 5 and parser version 7 left: no receivers, bases or import names.
      const db = await openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS.filter((m) => m.version <= 5) });
      db.exec(`INSERT INTO code_meta (key, value) VALUES ('root', '${root.replaceAll("'", "''")}'), ('parser', '7'), ('complete', '1')`);
      db.close();
      const index = await builtIndex({ root }, dbFile);
      assert.equal((await index.ready())?.meta('parser'), String(PARSER_VERSION));
      assert.deepEqual(await callers(index, 'get', 'Other'), ['src/b/Other.java:5 receiver-type']);
      assert.deepEqual(await callers(index, 'get', 'Base'), ['src/a/Box.java:4 receiver-type', 'src/b/Use.java:6 receiver-type']);
    });
  });

  describe('through what a call returns and fields of other files', () => {
    it('TypeScript: follows declared return types through a chain of calls and a variable holding one; a call on an unknown result is no caller', async () => {
      const index = await builtIndex({
        'src/repo.ts': ['export class Row { save() {} }', 'export class Repo {', '  first(): Row { return new Row() }', '}', 'export function open(): Repo { return new Repo() }', ''].join('\n'),
        'src/doc.ts': 'export class Doc { save() {} }\n',
        'src/use.ts': [
          "import { open } from './repo.js'",
          "import { Doc } from './doc.js'",
          'declare function mystery(): any',
          'export function main() {',
          '  open().first().save()',
          '  const repo = open()',
          '  repo.first().save()',
          '  const d = new Doc()',
          '  d.save()',
          '  mystery().save()',
          '}',
          '',
        ].join('\n'),
      });
      assert.deepEqual(await callers(index, 'save', 'Row'), ['src/use.ts:5 receiver-type', 'src/use.ts:7 receiver-type']);
      assert.deepEqual(await callers(index, 'save', 'Doc'), ['src/use.ts:9 receiver-type']);
    });

    it('Python: a return annotation and an assigned call result give the receiver; an unannotated result stays unknown', async () => {
      const index = await builtIndex({
        'pkg/__init__.py': '',
        'pkg/models.py': ['class Row:', '    def save(self): pass', '', 'class Table:', '    def row(self) -> "Row":', '        return Row()', '', 'def table() -> Table:', '    return Table()', '', 'def loose():', '    return Row()', '', 'class Other:', '    def save(self): pass', ''].join('\n'),
        'pkg/app.py': ['from .models import table, loose', '', 'def main():', '    t = table()', '    t.row().save()', '    loose().save()', ''].join('\n'),
      });
      assert.deepEqual(await callers(index, 'save', 'Row'), ['pkg/app.py:5 receiver-type']);
      assert.deepEqual(await callers(index, 'save', 'Other'), []);
    });

    it('Go: each result of a multi-value call, a field declared in another file of the package, and not a same-named method of another type', async () => {
      const index = await builtIndex({
        'go.mod': 'module example.com/m\n\ngo 1.21\n',
        'fs/fs.go': ['package fs', '', 'type File struct{}', '', 'func (f *File) Stat() {}', '', 'type FS struct {', '\troot *File', '}', '', 'func (s *FS) Open(name string) (f *File, err error) { return nil, nil }', '', 'func (s *FS) Pair() (*Dir, *File) { return nil, nil }', ''].join('\n'),
        'fs/dir.go': ['package fs', '', 'type Dir struct{}', '', 'func (d *Dir) Stat() {}', '', 'func Walk(s *FS) {', '\tr := s.root', '\tr.Stat()', '}', ''].join('\n'),
        'app/main.go': ['package app', '', 'import "example.com/m/fs"', '', 'func Run(s *fs.FS) {', '\tf, err := s.Open("x")', '\tf.Stat()', '\t_ = err', '\td, g := s.Pair()', '\tg.Stat()', '\td.Stat()', '}', ''].join('\n'),
      });
      assert.deepEqual(await callers(index, 'Stat', 'File'), ['app/main.go:7 receiver-type', 'app/main.go:10 receiver-type', 'fs/dir.go:9 receiver-type']);
      assert.deepEqual(await callers(index, 'Stat', 'Dir'), ['app/main.go:11 receiver-type']);
    });

    it('Java: implicit-this and chained calls by return type, casts, instanceof patterns, and fields of an enclosing or same-file base class', async () => {
      const index = await builtIndex({
        'src/a/Entry.java': 'package a;\n\npublic class Entry {\n  public boolean check() { return true; }\n}\n',
        'src/a/Other.java': 'package a;\n\npublic class Other {\n  public boolean check() { return false; }\n}\n',
        'src/a/Table.java': [
          'package a;',
          '',
          'public class Table {',
          '  Entry cell;',
          '  public Entry first() { return cell; }',
          '  boolean same(Object o) {',
          '    return first().check() && ((Table) o).first().check();',
          '  }',
          '  boolean like(Object o) {',
          '    return o instanceof Other other && other.check();',
          '  }',
          '  class Inner {',
          '    boolean k() { return cell.check(); }',
          '  }',
          '  static class Base { Other kept; }',
          '  static class Sub extends Base {',
          '    boolean m() { return kept.check(); }',
          '  }',
          '}',
          '',
        ].join('\n'),
      });
      assert.deepEqual(await callers(index, 'check', 'Entry'), ['src/a/Table.java:7 receiver-type', 'src/a/Table.java:13 receiver-type']);
      assert.deepEqual(await callers(index, 'check', 'Other'), ['src/a/Table.java:10 receiver-type', 'src/a/Table.java:17 receiver-type']);
    });

    it("Java: a type argument stands for the class's type parameter (List<Entry>.get gives an Entry), through `var` too", async () => {
      const index = await builtIndex({
        'src/a/List.java': 'package a;\n\npublic interface List<E> {\n  E get(int i);\n  Iter<E> iterator();\n}\n',
        'src/a/Iter.java': 'package a;\n\npublic interface Iter<T> {\n  T next();\n}\n',
        'src/a/Entry.java': 'package a;\n\npublic class Entry {\n  public boolean check() { return true; }\n}\n',
        'src/a/Other.java': 'package a;\n\npublic class Other {\n  public boolean check() { return false; }\n}\n',
        'src/a/Use.java': [
          'package a;',
          '',
          'class Use {',
          '  boolean m(List<Entry> entries, List<Other> others) {',
          '    var e = entries.get(0);',
          '    boolean a = e.check();',
          '    boolean b = entries.iterator().next().check();',
          '    return a && b && others.get(1).check();',
          '  }',
          '}',
          '',
        ].join('\n'),
      });
      assert.deepEqual(await callers(index, 'check', 'Entry'), ['src/a/Use.java:6 receiver-type', 'src/a/Use.java:7 receiver-type']);
      assert.deepEqual(await callers(index, 'check', 'Other'), ['src/a/Use.java:8 receiver-type']);
    });

    it("Java: Outer.this, a local named like the method, a nested class calling what its outer class inherits, and a superclass's method before an interface's", async () => {
      const index = await builtIndex({
        'src/a/Coll.java': 'package a;\n\npublic interface Coll {\n  int size();\n  boolean addAll(Coll c);\n}\n',
        'src/a/AbstractColl.java': 'package a;\n\npublic abstract class AbstractColl implements Coll {\n  public boolean addAll(Coll c) { return true; }\n}\n',
        'src/a/Bag.java': [
          'package a;',
          '',
          'public class Bag extends AbstractColl implements Coll {',
          '  public int size() { return 0; }',
          '  Bag(Coll c) { addAll(c); }',
          '  int twice() {',
          '    int size = size();',
          '    return size * 2;',
          '  }',
          '  class View {',
          '    int n() { return Bag.this.size(); }',
          '    boolean more(Coll c) { return addAll(c); }',
          '  }',
          '}',
          '',
        ].join('\n'),
      });
      assert.deepEqual(await callers(index, 'size', 'Bag'), ['src/a/Bag.java:7 receiver-type', 'src/a/Bag.java:11 receiver-type']);
      assert.deepEqual(await callers(index, 'addAll', 'AbstractColl'), ['src/a/Bag.java:5 receiver-type', 'src/a/Bag.java:12 receiver-type']);
      assert.deepEqual(await callers(index, 'addAll', 'Coll'), []);
    });

    it('Go: new(T), an embedded struct reached by its type name, and an owner named exactly: not a same-named type of other case, nor a method in a file named like the owner', async () => {
      const index = await builtIndex({
        'go.mod': 'module example.com/m\n\ngo 1.21\n',
        'web/handler.go': ['package web', '', 'type Handler interface {', '\tServe()', '}', '', 'type handler struct{}', '', 'func (h handler) Serve() {}', ''].join('\n'),
        'web/frame.go': ['package web', '', 'type Frame struct{}', '', 'func (f *Frame) reset() {}', '', 'type MetaFrame struct {', '\t*Frame', '}', ''].join('\n'),
        'web/use.go': [
          'package web',
          '',
          'func Run(h Handler, m *MetaFrame) {',
          '\th.Serve()',
          '\tm.Frame.reset()',
          '\tx := new(handler)',
          '\tx.Serve()',
          '}',
          '',
        ].join('\n'),
      });
      assert.deepEqual(await callers(index, 'Serve', 'handler'), ['web/use.go:7 receiver-type']);
      assert.deepEqual(await callers(index, 'Serve', 'Handler'), ['web/use.go:4 receiver-type']);
      assert.deepEqual(await callers(index, 'reset', 'Frame'), ['web/use.go:5 receiver-type']);
    });

    it('Go: an element of a slice or map, by index and by range, from a local or a field declared in another file', async () => {
      const index = await builtIndex({
        'go.mod': 'module example.com/m\n\ngo 1.21\n',
        'pool/conn.go': ['package pool', '', 'type Conn struct{}', '', 'func (c *Conn) Close() {}', '', 'type Pool struct {', '\tbyKey map[string]*Conn', '\tall   []*Conn', '}', ''].join('\n'),
        'pool/file.go': ['package pool', '', 'type File struct{}', '', 'func (f *File) Close() {}', ''].join('\n'),
        'pool/use.go': [
          'package pool',
          '',
          'func Drain(p *Pool, files []*File) {',
          '\tc := p.byKey["a"]',
          '\tc.Close()',
          '\tfor _, d := range p.all {',
          '\t\td.Close()',
          '\t}',
          '\tfiles[0].Close()',
          '}',
          '',
        ].join('\n'),
      });
      assert.deepEqual(await callers(index, 'Close', 'Conn'), ['pool/use.go:5 receiver-type', 'pool/use.go:7 receiver-type']);
      assert.deepEqual(await callers(index, 'Close', 'File'), ['pool/use.go:9 receiver-type']);
    });
  });
});

