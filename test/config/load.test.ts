import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { findConfigFile, loadConfig, parseConfigText } from '../../src/config/load.ts';
import { projectDataDir, resolveProjectRoot, resolveWorkdirs } from '../../src/config/paths.ts';
import { defaultConfig } from '../../src/config/defaults.ts';
import type { AppError } from '../../src/errors.ts';
import { fixture, removeDir, runtime, withEnv } from '../helpers/env.ts';

const clean = { CTXGATE_CONFIG: undefined, CTXMODE_CONFIG: undefined, CODE_CONTEXT_GATE_ROOT: undefined, CTXGATE_ROOT: undefined };

describe('config', () => {
  it("fills every field with the spec's defaults", () => {
    const c = defaultConfig();
    assert.deepEqual(c.gates, { maxFiles: 25, maxHits: 120, maxTokens: 6000, minRelevance: 0.35, compoundMargin: 0.15 });
    assert.deepEqual(c.limits, { maxRefusals: 3, absoluteMaxTokens: 24000 });
    assert.equal(c.estimation.charsPerToken, 3.5);
    assert.deepEqual(c.scoring.weights, { kind: 0.3, lexical: 0.25, proximity: 0.2, shape: 0.15, recency: 0.1 });
    assert.equal(c.backend.graph, 'builtin');
    assert.deepEqual(c.scan, { excludeDirs: ['node_modules', 'dist', 'build', 'target', '.venv', 'vendor', '.git'], respectGitignore: true });
    assert.deepEqual(c.workdirs, []);
  });

  it('reads JSON and YAML, keeping defaults for what the file leaves out', () => {
    const json = parseConfigText('{"gates":{"maxFiles":10}}', 'c.json');
    assert.equal(json.gates.maxFiles, 10);
    assert.equal(json.gates.maxHits, 120);
    const yaml = parseConfigText('gates:\n  minRelevance: 0.5\nworkdirs:\n  - ../other\n', 'c.yaml');
    assert.equal(yaml.gates.minRelevance, 0.5);
    assert.deepEqual(yaml.workdirs, ['../other']);
    assert.equal(parseConfigText('', 'empty.yaml').limits.maxRefusals, 3);
  });

  it("names a bad field's path and the expected type", () => {
    assert.throws(() => parseConfigText('{"gates":{"maxFiles":"many"}}', 'c.json'), (e: AppError) => {
      assert.equal(e.code, 'CONFIG_INVALID');
      assert.match(e.message, /gates\.maxFiles: .*expected number, received string/);
      return true;
    });
  });

  it('refuses unknown fields and broken syntax', () => {
    assert.throws(() => parseConfigText('{"gates":{"maxFile":3}}', 'c.json'), /gates\.maxFile: unknown field/);
    assert.throws(() => parseConfigText('{"gates":', 'c.json'), /not valid JSON/);
    assert.throws(() => parseConfigText('gates: [1, 2', 'c.yaml'), /not valid YAML/);
    assert.throws(() => parseConfigText('backend:\n  graph: neo4j\n', 'c.yaml'), /backend\.graph/);
  });

  it('finds the config: --config, then CTXGATE_CONFIG/CTXMODE_CONFIG, then the project file', () => {
    const dir = fixture({ 'ctxgate.config.yaml': 'gates:\n  maxFiles: 7\n', 'other.json': '{"gates":{"maxFiles":8}}', 'mode.json': '{"gates":{"maxFiles":9}}' });
    const rt = withEnv(runtime, { ...clean, HOME: dir });
    assert.equal(findConfigFile(rt, undefined, dir), path.join(dir, 'ctxgate.config.yaml'));
    assert.equal(loadConfig(rt, undefined, dir).config.gates.maxFiles, 7);
    assert.equal(loadConfig(withEnv(rt, { CTXMODE_CONFIG: path.join(dir, 'mode.json') }), undefined, dir).config.gates.maxFiles, 9);
    assert.equal(loadConfig(withEnv(rt, { CTXGATE_CONFIG: path.join(dir, 'other.json'), CTXMODE_CONFIG: path.join(dir, 'mode.json') }), undefined, dir).config.gates.maxFiles, 8);
    assert.equal(loadConfig(rt, path.join(dir, 'mode.json'), dir).config.gates.maxFiles, 9);
    assert.throws(() => loadConfig(rt, path.join(dir, 'missing.json'), dir), /does not exist/);
    removeDir(dir);
  });

  it('resolves the project root from flag, CODE_CONTEXT_GATE_ROOT, CTXGATE_ROOT, then cwd', () => {
    const a = fixture();
    const b = fixture();
    const rt = withEnv(runtime, { ...clean, CODE_CONTEXT_GATE_ROOT: a, CTXGATE_ROOT: b });
    assert.equal(resolveProjectRoot(rt, b), b);
    assert.equal(resolveProjectRoot(rt, undefined), a);
    assert.equal(resolveProjectRoot(withEnv(rt, { CODE_CONTEXT_GATE_ROOT: undefined }), undefined), b);
    assert.throws(() => resolveProjectRoot(rt, path.join(a, 'nope')), /does not exist/);
    removeDir(a);
    removeDir(b);
  });

  it('puts the project root first among the workdirs, resolving the others against the config file', () => {
    const root = fixture({ 'cfg/ctxgate.config.yaml': '', 'shared/': '' });
    const dirs = resolveWorkdirs(runtime, root, ['../shared', root], path.join(root, 'cfg', 'ctxgate.config.yaml'));
    assert.deepEqual(dirs, [root, path.join(root, 'shared')]);
    assert.throws(() => resolveWorkdirs(runtime, root, ['missing'], undefined), /workdir 'missing'/);
    removeDir(root);
  });

  it('gives each project its own data folder named by path hash and basename', () => {
    const rt = withEnv(runtime, { CTXGATE_DATA_DIR: '/data' });
    const one = projectDataDir(rt, '/home/u/my project');
    assert.match(one, /^\/data\/[0-9a-f]{16}-my project$/);
    assert.notEqual(one, projectDataDir(rt, '/home/v/my project'));
    assert.equal(projectDataDir(withEnv(runtime, { CTXGATE_DATA_DIR: undefined, XDG_DATA_HOME: '/xdg' }), '/p').startsWith('/xdg/ctxgate/'), true);
  });

  it('refuses a data folder inside /proc or /sys with a clear error instead of hanging', () => {
    for (const dir of ['/proc/self/x', '/sys', '/sys/../proc/1']) {
      assert.throws(() => projectDataDir(withEnv(runtime, { CTXGATE_DATA_DIR: dir }), '/p'), /kernel pseudo-filesystem/, dir);
    }
    assert.match(projectDataDir(withEnv(runtime, { CTXGATE_DATA_DIR: '/processes' }), '/p'), /^\/processes\//, 'only the folders themselves');
  });
});
