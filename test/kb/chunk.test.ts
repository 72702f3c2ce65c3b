import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chunkDocument, formatFor } from '../../src/kb/chunk/index.ts';
import { chunkJson } from '../../src/kb/chunk/json.ts';
import { chunkMarkdown } from '../../src/kb/chunk/markdown.ts';
import { chunkText } from '../../src/kb/chunk/text.ts';
import { byteLength, MAX_CHUNK_BYTES } from '../../src/kb/chunk/types.ts';

describe('chunkers', () => {
  it('split markdown by headings with breadcrumb titles and true line numbers', () => {
    const md = '# Guide\nintro\n\n## Install\nsteps\n\n### Linux\napt-get install x\n\n## Use\nrun it\n';
    const chunks = chunkMarkdown(md, 'guide.md');
    assert.deepEqual(
      chunks.map((c) => [c.title, c.lineStart, c.lineEnd]),
      [
        ['Guide', 1, 2],
        ['Guide > Install', 4, 5],
        ['Guide > Install > Linux', 7, 8],
        ['Guide > Use', 10, 11],
      ],
    );
  });

  it('never treats a # inside a code fence as a heading, and keeps fences whole', () => {
    const fence = ['```sh', ...Array.from({ length: 120 }, (_, i) => `# comment ${i} ${'x'.repeat(30)}`), '```'].join('\n');
    const md = `# Title\n${'para '.repeat(200)}\n\n${fence}\n\nafter\n`;
    const chunks = chunkMarkdown(md, 'a.md');
    assert.ok(chunks.every((c) => c.title === 'Title'));
    const withFence = chunks.filter((c) => c.body.includes('```sh'));
    assert.equal(withFence.length, 1);
    assert.ok(withFence[0]!.body.trimEnd().endsWith('```'), 'the fence is not cut');
    assert.ok(byteLength(withFence[0]!.body) > MAX_CHUNK_BYTES, 'kept whole even past the chunk size');
  });

  it('keeps chunks of plain text under the size, windows overlapping, lines accounted for', () => {
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i} ${'y'.repeat(40)}`);
    const chunks = chunkText(lines.join('\n'), 'log.txt');
    assert.ok(chunks.length > 3);
    for (const c of chunks) assert.ok(byteLength(c.body) <= MAX_CHUNK_BYTES);
    assert.equal(chunks[0]!.lineStart, 1);
    assert.equal(chunks[chunks.length - 1]!.lineEnd, 400);
    assert.ok(chunks[1]!.lineStart < chunks[0]!.lineEnd, 'windows overlap');
    for (const c of chunks) assert.equal(c.body.split('\n')[0], lines[c.lineStart - 1]);
  });

  it('groups blank-line sections of text into chunks and titles them by first line', () => {
    const chunks = chunkText('function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n', 'x.js');
    assert.equal(chunks.length, 1);
    assert.equal(chunks[0]!.title, 'function a() {');
    assert.equal(chunks[0]!.lineEnd, 7);
  });

  it('chunks JSON by key paths', () => {
    const json = JSON.stringify({ name: 'pkg', scripts: { build: 'tsc', test: 'node --test' }, deps: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`dep-${i}`, `^${i}.0.0`])) });
    const chunks = chunkJson(json, 'package.json');
    assert.ok(chunks.some((c) => c.body.includes('scripts: {"build":"tsc","test":"node --test"}') || c.body.includes('scripts.build: "tsc"')));
    assert.ok(chunks.some((c) => c.title === 'deps' && c.body.includes('deps.dep-7: "^7.0.0"')));
    for (const c of chunks) assert.ok(byteLength(c.body) <= MAX_CHUNK_BYTES);
    assert.deepEqual(chunkJson('{not json', 'x.json').map((c) => c.body), ['{not json']);
  });

  it('picks the chunker by file name', () => {
    assert.equal(formatFor('README.md'), 'markdown');
    assert.equal(formatFor('data/x.JSON'), 'json');
    assert.equal(formatFor('main.go'), 'text');
    assert.equal(chunkDocument('# A\nb\n', 'a.md', 'markdown')[0]!.title, 'A');
  });
});
