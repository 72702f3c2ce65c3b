import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldTypeText, returnTypeText, typeArguments, typeParameters } from '../../src/code/return-types.ts';

describe('return and field types read from a signature', () => {
  it('reads the declared return type of each language, and nothing where none is declared', () => {
    assert.equal(returnTypeText('export function open<T>(name: string, f: (x: T) => void): Repo<T>', 'open', 'typescript'), 'Repo<T>');
    assert.equal(returnTypeText('first()', 'first', 'typescript'), undefined);
    assert.equal(returnTypeText('def row(self, key: int) -> "Row"', 'row', 'python'), '"Row"');
    assert.equal(returnTypeText('def loose()', 'loose', 'python'), undefined);
    assert.equal(returnTypeText('func (s *FS) Open(name string) (*File, error)', 'Open', 'go'), '*File');
    assert.equal(returnTypeText('func (s *FS) Open(name string) (f *File, err error)', 'Open', 'go'), '*File');
    assert.equal(returnTypeText('func New() *Store', 'New', 'go'), '*Store');
    assert.equal(returnTypeText('func (s *FS) Close()', 'Close', 'go'), undefined);
    assert.equal(returnTypeText('public static <K, V> Map.Entry<K, V> entry(K k, V v)', 'entry', 'java'), 'Map.Entry<K, V>');
    assert.equal(returnTypeText('@Override public void run()', 'run', 'java'), undefined);
  });

  it('does not take a longer name that starts with the asked one for it', () => {
    assert.equal(returnTypeText('func openFile() *File', 'open', 'go'), undefined);
  });

  it('reads a field type in Go, Java and TypeScript order', () => {
    assert.equal(fieldTypeText('root *File', 'root', 'go'), '*File');
    assert.equal(fieldTypeText('private transient LocaleExtensions localeExtensions;', 'localeExtensions', 'java'), 'LocaleExtensions');
    assert.equal(fieldTypeText('private readonly repo?: Repo = undefined', 'repo', 'typescript'), 'Repo');
    assert.equal(fieldTypeText('count = 0', 'count', 'typescript'), undefined);
  });

  it("reads a type's arguments and a class's parameters, nested brackets kept whole", () => {
    assert.deepEqual(typeArguments('Map<K, List<V>>'), ['K', 'List<V>']);
    assert.deepEqual(typeArguments('String'), []);
    assert.deepEqual(typeParameters('public class HashMap<K extends Comparable<? super K>, V> extends AbstractMap<K,V>', 'HashMap'), ['K', 'V']);
    assert.deepEqual(typeParameters('class Box extends Base<T>', 'Box'), []);
  });
});
