import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unsupportedNodeLine } from '../../src/cli/node-support.ts';

describe('the Node version check', () => {
  it('warns in one line below Node 22.7, naming the version and which to use', () => {
    for (const version of ['20.20.2', '22.6.0', '18.0.0']) {
      const line = unsupportedNodeLine({ name: 'node', version });
      assert.ok(line, version);
      assert.equal(line.trimEnd().split('\n').length, 1);
      assert.match(line, new RegExp(`Node ${version.replaceAll('.', '\\.')} is not supported; use Node 22\\.7 or later`));
    }
  });

  it('stays quiet on Node 22.7 and later, and on Deno', () => {
    for (const version of ['22.7.0', '22.12.1', '24.0.0', '26.3.0']) assert.equal(unsupportedNodeLine({ name: 'node', version }), undefined, version);
    assert.equal(unsupportedNodeLine({ name: 'deno', version: '2.9.6' }), undefined);
  });
});
