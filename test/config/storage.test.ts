import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfigText } from '../../src/config/load.ts';
import { defaultConfig } from '../../src/config/defaults.ts';
import { resolveStorageSettings } from '../../src/config/storage.ts';
import { runtime, withEnv } from '../helpers/env.ts';

const noEnv = withEnv(runtime, { CTXGATE_DATABASE_URL: undefined });
const storageOf = (yaml: string) => parseConfigText(yaml, 'c.yaml').storage;

describe('storage settings', () => {
  it('default to the embedded SQLite backend', () => {
    assert.deepEqual(defaultConfig().storage, { backend: 'sqlite' });
    assert.deepEqual(resolveStorageSettings(noEnv, defaultConfig().storage), { backend: 'sqlite' });
  });

  it('take the Postgres URL and project key from the config file', () => {
    const storage = storageOf('storage:\n  backend: postgres\n  url: postgres://team@db.example.test/ctx\n  projectKey: acme/shop\n');
    assert.deepEqual(resolveStorageSettings(noEnv, storage), { backend: 'postgres', url: 'postgres://team@db.example.test/ctx', projectKey: 'acme/shop' });
  });

  it('warn in one line, without the password, that CTXGATE_DATABASE_URL is ignored while the backend is sqlite', () => {
    const env = withEnv(runtime, { CTXGATE_DATABASE_URL: 'postgres://team:hunter22@db.example.test/ctx' });
    const settings = resolveStorageSettings(env, defaultConfig().storage);
    assert.equal(settings.backend, 'sqlite');
    const warning = settings.backend === 'sqlite' ? (settings.warning ?? '') : '';
    assert.match(warning, /^ctxgate: CTXGATE_DATABASE_URL is set \(postgres:\/\/team:\*\*\*@db\.example\.test\/ctx\) but storage\.backend is sqlite, so it is ignored; .*set storage\.backend: postgres/);
    assert.doesNotMatch(warning, /hunter22|\n/);
  });

  it('normalise a project key given as a remote URL as the default key is', () => {
    const storage = storageOf('storage:\n  backend: postgres\n  url: postgres://team@db.example.test/ctx\n  projectKey: git@GitHub.com:Acme/Shop.git\n');
    assert.equal((resolveStorageSettings(noEnv, storage) as { projectKey?: string }).projectKey, 'github.com/acme/shop');
  });

  it('let CTXGATE_DATABASE_URL give (and override) the URL, so the password stays out of the file', () => {
    const env = withEnv(runtime, { CTXGATE_DATABASE_URL: 'postgresql://team:pw@10.0.0.5:6543/ctx' });
    const settings = resolveStorageSettings(env, storageOf('storage:\n  backend: postgres\n  url: postgres://old@db.example.test/ctx\n'));
    assert.equal(settings.backend === 'postgres' && settings.url, 'postgresql://team:pw@10.0.0.5:6543/ctx');
  });

  it('refuse an unknown backend or field with the path of the mistake', () => {
    assert.throws(() => storageOf('storage:\n  backend: mysql\n'), /storage\.backend: .*"sqlite".*"postgres"/s);
    assert.throws(() => storageOf('storage:\n  uri: postgres://x\n'), /storage\.uri: unknown field/);
  });

  it('say what to set when Postgres is chosen without a URL', () => {
    assert.throws(() => resolveStorageSettings(noEnv, storageOf('storage:\n  backend: postgres\n')), (e: Error & { hint?: string }) => {
      assert.match(e.message, /no database URL/);
      assert.match(e.hint ?? '', /CTXGATE_DATABASE_URL=postgres:\/\//);
      return true;
    });
  });

  it('refuse a URL that is not a Postgres URL, without printing its password', () => {
    const storage = storageOf('storage:\n  backend: postgres\n  url: mysql://root:hunter22@db.example.test/x\n');
    assert.throws(() => resolveStorageSettings(noEnv, storage), (e: Error) => {
      assert.match(e.message, /must be a postgres:\/\/ or postgresql:\/\/ URL/);
      assert.doesNotMatch(e.message, /hunter22/);
      return true;
    });
  });

  it('refuse a URL set while the backend stays SQLite, rather than ignoring it', () => {
    const storage = storageOf('storage:\n  url: postgres://team:pw@db.example.test/ctx\n');
    assert.throws(() => resolveStorageSettings(noEnv, storage), (e: Error) => {
      assert.match(e.message, /storage\.backend is sqlite/);
      assert.match(e.message, /team:\*\*\*@/);
      return true;
    });
  });
});
