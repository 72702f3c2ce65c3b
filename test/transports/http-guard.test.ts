import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allowedHostNames, checkHost, checkOrigin, isLoopbackHost, tokenMatches } from '../../src/transports/http-guard.ts';
import { generateToken } from '../../src/transports/http-token.ts';

describe('HTTP guard', () => {
  it('knows loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1']) assert.equal(isLoopbackHost(h), true, h);
    for (const h of ['0.0.0.0', '10.0.0.1', '::', 'example.com', '192.168.1.1']) assert.equal(isLoopbackHost(h), false, h);
  });

  it('accepts loopback Host headers on the right port only', () => {
    const names = allowedHostNames('127.0.0.1', []);
    assert.equal(checkHost('localhost:8787', names, 8787), undefined);
    assert.equal(checkHost('127.0.0.1:8787', names, 8787), undefined);
    assert.equal(checkHost('[::1]:8787', names, 8787), undefined);
    assert.equal(checkHost('127.0.0.1', names, 8787), undefined);
    assert.match(checkHost('127.0.0.1:9999', names, 8787)!, /port 9999/);
    assert.match(checkHost('attacker.example:8787', names, 8787)!, /not allowed/);
    assert.match(checkHost(undefined, names, 8787)!, /no Host/);
    assert.match(checkHost('a b', names, 8787)!, /malformed/);
  });

  it('accepts extra host names given with --allowed-host', () => {
    const names = allowedHostNames('0.0.0.0', ['ctx.internal']);
    assert.equal(checkHost('ctx.internal:80', names, 80), undefined);
  });

  it('lets requests without Origin through and checks those with one', () => {
    const names = allowedHostNames('127.0.0.1', []);
    assert.equal(checkOrigin(undefined, names, [], 3000), undefined);
    assert.equal(checkOrigin('http://localhost:3000', names, [], 3000), undefined);
    assert.match(checkOrigin('https://evil.example', names, [], 3000)!, /not allowed/);
    assert.match(checkOrigin('null', names, [], 3000)!, /malformed|not allowed/);
    assert.equal(checkOrigin('https://app.example', names, ['https://app.example'], 3000), undefined);
  });

  // Issue 23.11: a page served by another program on localhost is another origin.
  it('refuses an Origin on the right host but another port, and takes a missing port as the scheme default', () => {
    const names = allowedHostNames('127.0.0.1', []);
    assert.match(checkOrigin('http://localhost:8000', names, [], 3000)!, /^Origin 'http:\/\/localhost:8000' is on port 8000, not the server's port 3000 \(start with --allowed-origin/);
    assert.match(checkOrigin('http://127.0.0.1', names, [], 3000)!, /is on port 80, not the server's port 3000/);
    assert.equal(checkOrigin('http://127.0.0.1', names, [], 80), undefined);
    assert.equal(checkOrigin('https://localhost', names, [], 443), undefined);
    assert.equal(checkOrigin('http://localhost:8000', names, ['http://localhost:8000'], 3000), undefined, '--allowed-origin still lets it in');
  });

  it('matches bearer tokens exactly', () => {
    const token = generateToken();
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(tokenMatches(`Bearer ${token}`, token), true);
    assert.equal(tokenMatches(`bearer ${token}`, token), true);
    assert.equal(tokenMatches(token, token), false);
    assert.equal(tokenMatches(`Bearer ${token}x`, token), false);
    assert.equal(tokenMatches(`Bearer ${token.slice(0, -1)}`, token), false);
    assert.equal(tokenMatches(undefined, token), false);
    assert.equal(tokenMatches('Bearer ', ''), false);
  });
});
