// The config a server uses with no config file is written out as an object (src/config/defaults.ts) so that
// the start loads neither yaml nor the schema; it must stay what the schema gives an empty file.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultConfig } from '../../src/config/defaults.ts';
import { configSchema } from '../../src/config/schema.ts';

describe('the defaults without a config file', () => {
  it('equal what the schema makes of an empty config', () => {
    assert.deepEqual(defaultConfig(), configSchema.parse({}));
  });

  it('are a fresh object each time (settings adjust their copy)', () => {
    const first = defaultConfig();
    first.backend.graph = 'none';
    first.scan.excludeDirs.push('x');
    assert.deepEqual(defaultConfig(), configSchema.parse({}));
  });

  it('pass the schema unchanged (every field set, none unknown)', () => {
    assert.deepEqual(configSchema.parse(defaultConfig()), defaultConfig());
  });
});
