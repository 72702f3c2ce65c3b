import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { classifyFailure } from '../../src/exec/failure.ts';
import { availableRuntimes } from '../../src/exec/programs.ts';
import { fixture, removeDir, runtime, withEnv } from '../helpers/env.ts';

// Issue 24: doctor listed rust where rustc is rustup's proxy with no toolchain chosen, and ctx_run
// then called rustup's complaint a "syntax error".
describe('rust through rustup', () => {
  const home = fixture();
  after(() => removeDir(home));
  const bin = path.join(home, 'bin');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'rustup'), '#!/bin/sh\necho "error: rustup could not choose a version of rustc to run" >&2\nexit 1\n');
  chmodSync(path.join(bin, 'rustup'), 0o755);
  symlinkSync('rustup', path.join(bin, 'rustc'));
  const rustupHome = path.join(home, 'rustup');
  mkdirSync(rustupHome);
  const env = { PATH: bin, RUSTUP_HOME: rustupHome, RUSTUP_TOOLCHAIN: undefined };

  it('is not available while rustup has no default toolchain, and is once it has one', () => {
    writeFileSync(path.join(rustupHome, 'settings.toml'), 'version = "12"\nprofile = "default"\n');
    assert.equal(availableRuntimes(withEnv(runtime, env)).rust, null);
    assert.equal(availableRuntimes(withEnv(runtime, { ...env, RUSTUP_TOOLCHAIN: 'stable' })).rust, path.join(bin, 'rustc'));
    writeFileSync(path.join(rustupHome, 'settings.toml'), 'version = "12"\ndefault_toolchain = "stable-x86_64-unknown-linux-gnu"\n');
    assert.equal(availableRuntimes(withEnv(runtime, env)).rust, path.join(bin, 'rustc'));
  });

  it('names a run that fails for want of a toolchain, not a syntax error', () => {
    const stderr = "error: rustup could not choose a version of rustc to run, because one wasn't specified explicitly, and no default is configured.\nhelp: run 'rustup default stable' to download the latest stable release of Rust and set it as your default toolchain.\n";
    assert.equal(classifyFailure({ exitCode: 1, signal: null, timedOut: false, stdout: '', stderr }), 'toolchain not set up');
  });
});
