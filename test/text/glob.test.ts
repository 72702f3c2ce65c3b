import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileGlob } from '../../src/text/glob.ts';

const matching = (glob: string, paths: string[], options = {}) => paths.filter(compileGlob(glob, options));

const PATHS = ['a.ts', 'src/a.ts', 'src/lib/b.ts', '.env', 'src/.env.local', 'x.min.js', 'a', 'a/b', 'a/b/c', 'ab', 'file[1].txt', 'file1.txt', 'i18n/größe.txt'];

describe('globs', () => {
  it('match * and ? within a segment, and ** across any number of them', () => {
    assert.deepEqual(matching('*.ts', PATHS), ['a.ts']);
    assert.deepEqual(matching('**/*.ts', PATHS), ['a.ts', 'src/a.ts', 'src/lib/b.ts']);
    assert.deepEqual(matching('src/**/*.ts', PATHS), ['src/a.ts', 'src/lib/b.ts']);
    assert.deepEqual(matching('a/**', PATHS), ['a', 'a/b', 'a/b/c']);
    assert.deepEqual(matching('?', PATHS), ['a']);
    assert.deepEqual(matching('**/größe*', PATHS), ['i18n/größe.txt']);
  });

  it('take classes, negated classes, alternatives and escapes', () => {
    assert.deepEqual(matching('[a-b]*', PATHS), ['a.ts', 'a', 'ab']);
    assert.deepEqual(matching('[!a.]*', PATHS), ['x.min.js', 'file[1].txt', 'file1.txt']);
    assert.deepEqual(matching('*.{ts,{min.js,md}}', PATHS), ['a.ts', 'x.min.js']);
    assert.deepEqual(matching('file[1].txt', PATHS), ['file1.txt']);
    assert.deepEqual(matching('file\\[1\\].txt', PATHS), ['file[1].txt']);
    assert.deepEqual(matching('[[:alpha:]]', PATHS), ['a']);
  });

  it('let wildcards take hidden files, or, with dot: false, only when the glob names a dot segment', () => {
    assert.deepEqual(matching('**/*env*', PATHS), ['.env', 'src/.env.local']);
    assert.deepEqual(matching('**/*env*', PATHS, { dot: false }), []);
    assert.deepEqual(matching('**/.env*', PATHS, { dot: false }), ['.env', 'src/.env.local']);
  });

  it('answer at once where a backtracking matcher takes exponential time (issue 11)', () => {
    const path = `x/${'a'.repeat(4000)}`;
    assert.equal(compileGlob(`**/${'*a'.repeat(20)}*b`)(path), false);
    assert.equal(compileGlob(`**/${'*a'.repeat(20)}*`)(path), true);
  });

  it('refuses a glob whose class cannot be compiled, saying it is the glob', () => {
    assert.throws(() => compileGlob('[z-a]*'), /glob "\[z-a\]\*" is not valid/);
  });
});
