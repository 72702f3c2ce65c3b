// Issue 22: calls counted exactly — each call of a line judged on its own receiver, Java overloads
// told apart by argument count, and javac's binding of inherited and abstract methods.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callGroups } from '../../src/code/call-groups.ts';
import { usesOf } from '../../src/code/graph.ts';
import type { CodeIndex } from '../../src/code/index.ts';
import { parameterCount } from '../../src/code/return-types.ts';
import { builtIndex } from '../helpers/code-index.ts';

/** Calls of Owner.method as `file:line ×times`, in order. */
async function callers(index: CodeIndex, name: string, owner: string): Promise<string[]> {
  const u = await usesOf(index, name, owner);
  assert.ok(u, 'the index answers');
  return u.uses.filter((x) => x.kind === 'call' && x.certainty !== 'override').map((x) => `${x.file}:${x.line} ×${x.times ?? 1}`);
}

const java = (pkg: string, body: string[]) => [`package ${pkg};`, '', ...body, ''].join('\n');

describe('calls counted per receiver and argument count', () => {
  it('reads a row without groups as its own qualifier, via and count, and a row with groups as each group', () => {
    assert.deepEqual(callGroups({ qualifier: 'm', via: 'Map', n: 2, calls: null }), [{ qualifier: 'm', via: 'Map', n: 2, args: undefined }]);
    assert.deepEqual(callGroups({ qualifier: null, via: 'A', n: 2, calls: '[[null,"A",1,0],["m","Map",1,1]]' }), [
      { qualifier: null, via: 'A', n: 1, args: 0 },
      { qualifier: 'm', via: 'Map', n: 1, args: 1 },
    ]);
    // A damaged column falls back to the row itself.
    assert.deepEqual(callGroups({ qualifier: null, via: 'A', n: 1, calls: '[oops' }), [{ qualifier: null, via: 'A', n: 1, args: undefined }]);
  });

  it('counts parameters of a signature, varargs open-ended, a cut signature unknown', () => {
    assert.deepEqual(parameterCount('public int get(int i, Map<K, V> m)', 'get'), { min: 2, max: 2 });
    assert.deepEqual(parameterCount('ListIterator<E> listIterator()', 'listIterator'), { min: 0, max: 0 });
    assert.deepEqual(parameterCount('static <T> List<T> of(T first, T... rest)', 'of'), { min: 1, max: Number.POSITIVE_INFINITY });
    assert.equal(parameterCount('void put(int a, int b…', 'put'), undefined);
  });

  it('Java: two calls of a name on one line on different receivers each reach their own owner, counted once each', async () => {
    const index = await builtIndex({
      'src/a/Map.java': java('a', ['public interface Map {', '  Object get(Object k);', '}']),
      'src/a/Table.java': java('a', ['public class Table {', '  Object get(Object k) { return null; }', '  boolean same(Map m, Object k) {', '    return get(k) == m.get(k);', '  }', '  boolean twice(Object k) {', '    return get(k) == get(k);', '  }', '}']),
    });
    assert.deepEqual(await callers(index, 'get', 'Map'), ['src/a/Table.java:6 ×1']);
    assert.deepEqual(await callers(index, 'get', 'Table'), ['src/a/Table.java:6 ×1', 'src/a/Table.java:9 ×2']);
  });

  it("Java: a call of the anchor and a call on its base type on one line: the first is counted, the second is an override candidate apart", async () => {
    const index = await builtIndex({
      'src/a/Map.java': java('a', ['public interface Map {', '  Object get(Object k);', '}']),
      'src/a/Impl.java': java('a', ['public class Impl implements Map {', '  public Object get(Object k) { return null; }', '  boolean same(Map m, Object k) { return get(k) == m.get(k); }', '}']),
    });
    const u = await usesOf(index, 'get', 'Impl');
    assert.deepEqual(
      u?.uses.filter((x) => x.kind === 'call').map((x) => `${x.line} ${x.certainty} ×${x.times}`),
      ['5 receiver-type ×1', '5 override ×1'],
    );
  });

  it('Python and Go: a line calling one name on two receivers of different classes counts one call for each', async () => {
    const index = await builtIndex({
      'm.py': ['class A:', '    def run(self): pass', '', 'class B:', '    def run(self): pass', '', 'def main():', '    a = A()', '    b = B()', '    a.run(); b.run()', '    a.run(); a.run()', ''].join('\n'),
      'go.mod': 'module example.com/m\n\ngo 1.21\n',
      'p/p.go': ['package p', '', 'type F struct{}', '', 'func (f *F) Close() {}', '', 'type G struct{}', '', 'func (g *G) Close() {}', '', 'func Run(f *F, g *G) {', '\tf.Close(); g.Close()', '}', ''].join('\n'),
    });
    assert.deepEqual(await callers(index, 'run', 'A'), ['m.py:10 ×1', 'm.py:11 ×2']);
    assert.deepEqual(await callers(index, 'run', 'B'), ['m.py:10 ×1']);
    assert.deepEqual(await callers(index, 'Close', 'G'), ['p/p.go:12 ×1']);
  });

  it("Java: a call goes to the overload taking its argument count, in a base class when the nearest class's overload takes another; with no match, to the nearest by name", async () => {
    const index = await builtIndex({
      'src/a/AbstractList.java': java('a', ['public abstract class AbstractList {', '  public Object listIterator() { return null; }', '  public Object listIterator(int i) { return null; }', '}']),
      'src/a/Seq.java': java('a', [
        'public abstract class Seq extends AbstractList {',
        '  public abstract Object listIterator(int index);',
        '  Object iterator() { return listIterator(); }',
        '  Object at(int i) { return listIterator(i); }',
        '  Object odd() { return listIterator(1, 2); }',
        '}',
      ]),
    });
    assert.deepEqual(await callers(index, 'listIterator', 'Seq'), ['src/a/Seq.java:6 ×1', 'src/a/Seq.java:7 ×1']);
    // Negative: the zero-argument call is AbstractList's, not Seq's one-argument method.
    const base = await usesOf(index, 'listIterator', 'AbstractList');
    assert.deepEqual(
      base?.uses.filter((u) => u.kind === 'call').map((u) => u.line),
      [5],
    );
  });

  it("Java: an abstract class method gives way to the interface method of a type the class does not implement (javac's binding); a receiver of the abstract class keeps it", async () => {
    const index = await builtIndex({
      'src/a/Coll.java': java('a', ['public interface Coll {', '  int size();', '}']),
      'src/a/Lst.java': java('a', ['public interface Lst extends Coll {', '  int size();', '}']),
      'src/a/AbstractColl.java': java('a', ['public abstract class AbstractColl implements Coll {', '  public abstract int size();', '  boolean empty() { return size() == 0; }', '}']),
      'src/a/AbstractLst.java': java('a', ['public abstract class AbstractLst extends AbstractColl implements Lst {', '  int last() { return size() - 1; }', '}']),
      'src/a/Use.java': java('a', ['class Use {', '  int n(AbstractColl c) { return c.size(); }', '}']),
    });
    assert.deepEqual(await callers(index, 'size', 'Lst'), ['src/a/AbstractLst.java:4 ×1']);
    assert.deepEqual(await callers(index, 'size', 'AbstractColl'), ['src/a/AbstractColl.java:5 ×1', 'src/a/Use.java:4 ×1']);
    assert.deepEqual(await callers(index, 'size', 'Coll'), []);
  });

  it("Java: a nested class's implicit this reaches what it inherits before its outer class's own method, but not a base's private method", async () => {
    const index = await builtIndex({
      'src/a/Nav.java': java('a', ['public interface Nav {', '  Nav descending();', '}']),
      'src/a/AbstractMap.java': java('a', ['public abstract class AbstractMap {', '  private static boolean eq(Object a, Object b) { return a == b; }', '}']),
      'src/a/Tree.java': java('a', [
        'public class Tree {',
        '  public Nav descending() { return null; }',
        '  static boolean eq(Object a, Object b) { return a.equals(b); }',
        '  abstract static class Sub extends AbstractMap implements Nav {',
        '    Object keys() { return descending(); }',
        '    boolean has(Object k) { return eq(k, null); }',
        '  }',
        '  Object mine() { return descending(); }',
        '}',
      ]),
    });
    assert.deepEqual(await callers(index, 'descending', 'Nav'), ['src/a/Tree.java:7 ×1']);
    assert.deepEqual(await callers(index, 'descending', 'Tree'), ['src/a/Tree.java:10 ×1']);
    assert.deepEqual(await callers(index, 'eq', 'Tree'), ['src/a/Tree.java:8 ×1']);
    assert.deepEqual(await callers(index, 'eq', 'AbstractMap'), []);
  });

  it('Java: a static field through its class name and the last instanceof pattern of a name give the receiver', async () => {
    const index = await builtIndex({
      'src/a/Flags.java': java('a', ['public class Flags {', '  static final Flags NONE = new Flags();', '  public int value() { return 0; }', '  boolean none(Flags f) { return f.value() == Flags.NONE.value(); }', '}']),
      'src/a/Other.java': java('a', ['public class Other {', '  public int value() { return 1; }', '}']),
      'src/a/Use.java': java('a', [
        'class Use {',
        '  int m(Object o) {',
        '    if (o instanceof Flags x) return x.value();',
        '    else if (o instanceof Other x) return x.value();',
        '    return 0;',
        '  }',
        '}',
      ]),
    });
    assert.deepEqual(await callers(index, 'value', 'Flags'), ['src/a/Flags.java:6 ×2', 'src/a/Use.java:5 ×1']);
    assert.deepEqual(await callers(index, 'value', 'Other'), ['src/a/Use.java:6 ×1']);
  });

  it('Go: a range over a slice literal and over a map of slices gives the element type; a same-named method of another type is not reached', async () => {
    const index = await builtIndex({
      'go.mod': 'module example.com/m\n\ngo 1.21\n',
      'p/sig.go': ['package p', '', 'type sig interface {', '\tmatch() string', '}', '', 'type exact struct{}', '', 'func (e *exact) match() string { return "" }', ''].join('\n'),
      'p/conn.go': ['package p', '', 'type conn struct{}', '', 'func (c *conn) close() {}', '', 'type other struct{}', '', 'func (o *other) close() {}', ''].join('\n'),
      'p/use.go': [
        'package p',
        '',
        'var sigs = []sig{&exact{}}',
        'func sniff() {',
        '\tfor _, s := range sigs {',
        '\t\ts.match()',
        '\t}',
        '}',
        '',
        'func drop(m map[string][]*conn) {',
        '\tfor _, cs := range m {',
        '\t\tfor _, c := range cs {',
        '\t\t\tc.close()',
        '\t\t}',
        '\t}',
        '}',
        '',
      ].join('\n'),
    });
    assert.deepEqual(await callers(index, 'match', 'sig'), ['p/use.go:6 ×1']);
    assert.deepEqual(await callers(index, 'close', 'conn'), ['p/use.go:13 ×1']);
    assert.deepEqual(await callers(index, 'close', 'other'), []);
  });

  it('Python: a class reached through a dotted import (`import pkg.mod` … `pkg.mod.C().m()`) gives the receiver; another class of the name is not reached', async () => {
    const index = await builtIndex({
      'pkg/__init__.py': '',
      'pkg/mod.py': ['class Parser:', '    def parse(self): pass', ''].join('\n'),
      'pkg/other.py': ['class Other:', '    def parse(self): pass', ''].join('\n'),
      'app.py': ['import pkg.mod', '', 'def main():', '    return pkg.mod.Parser().parse()', ''].join('\n'),
    });
    assert.deepEqual(await callers(index, 'parse', 'Parser'), ['app.py:4 ×1']);
    assert.deepEqual(await callers(index, 'parse', 'Other'), []);
  });
});
