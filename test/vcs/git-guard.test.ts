import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guardFromConfig, parseConfigList } from '../../src/vcs/git-guard.ts';

describe('git guard', () => {
  it('reads keys and values from git config --list -z, a bare key having no value', () => {
    assert.deepEqual(parseConfigList('core.bare\nfalse\0filter.x.required\0user.name\nA\nB\0'), [
      { key: 'core.bare', value: 'false' },
      { key: 'filter.x.required' },
      { key: 'user.name', value: 'A\nB' },
    ]);
  });

  it('blanks every filter driver the config names, dots and "=" in its name included', () => {
    const guard = guardFromConfig('filter.lfs.process\ngit-lfs filter-process\0filter.a.b=c.clean\n/bin/x\0filter.lfs.required\ntrue\0diff.tc.textconv\nx\0filter.clean\nx\0');
    assert.deepEqual(guard.filters, ['a.b=c', 'lfs']);
    assert.equal(guard.env.GIT_CONFIG_COUNT, '8');
    const pairs = Array.from({ length: 8 }, (_, i) => `${guard.env[`GIT_CONFIG_KEY_${i}`]}=${guard.env[`GIT_CONFIG_VALUE_${i}`]}`);
    assert.deepEqual(pairs, [
      'filter.lfs.clean=',
      'filter.lfs.smudge=',
      'filter.lfs.process=',
      'filter.lfs.required=false',
      'filter.a.b=c.clean=',
      'filter.a.b=c.smudge=',
      'filter.a.b=c.process=',
      'filter.a.b=c.required=false',
    ]);
  });

  it('sets nothing when the config names no filter', () => {
    assert.deepEqual(guardFromConfig('core.bare\nfalse\0'), { filters: [], env: {} });
  });
});
