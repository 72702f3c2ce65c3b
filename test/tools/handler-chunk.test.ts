import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { handlerGoneError, loadHandler } from '../../src/tools/handler-chunk.ts';
import { ErrorCode } from '../../src/errors.ts';
import { fixture, removeDir } from '../helpers/env.ts';

describe('a tool handler module that is gone', () => {
  it('says ctxgate was rebuilt or upgraded under the session, names the file, and says to restart the server', async () => {
    const dir = fixture();
    const gone = `${dir}/chunks/read-handler-HELTOBJ7.mjs`;
    try {
      // A real failed import on this runtime (Node and Deno word it differently).
      await assert.rejects(
        loadHandler(() => import(gone)),
        (error: Error & { code?: string; hint?: string }) => {
          assert.equal(error.code, ErrorCode.Unavailable);
          assert.equal(error.message, `ctxgate was rebuilt or upgraded while this session ran (${gone} is gone)`);
          assert.equal(error.hint, 'restart the MCP server — in Claude Code: /mcp → reconnect');
          return true;
        },
      );
    } finally {
      removeDir(dir);
    }
  });

  it('leaves other failures as they are', async () => {
    const broken = new Error('handler blew up while loading');
    await assert.rejects(loadHandler(() => Promise.reject(broken)), (error) => error === broken);
    assert.equal(handlerGoneError(new TypeError('x is not a function')), undefined);
    assert.equal(handlerGoneError('ERR_MODULE_NOT_FOUND'), undefined);
  });

  it('returns the module when it is there', async () => {
    const module = await loadHandler(() => import('../../src/tools/handler-chunk.ts'));
    assert.equal(typeof module.loadHandler, 'function');
  });
});
