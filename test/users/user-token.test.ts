import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashUserToken, issueUserToken, looksLikeUserToken, USER_TOKEN_PREFIX } from '../../src/users/user-token.ts';
import { refusalFor, type TeamUser } from '../../src/users/user-store.ts';
import { projectKeyProblem, userNameProblem } from '../../src/users/user-names.ts';

describe('user tokens of a team endpoint', () => {
  it('issues a recognisable token, a new one every time', () => {
    const a = issueUserToken();
    const b = issueUserToken();
    assert.ok(a.startsWith(USER_TOKEN_PREFIX));
    assert.match(a, /^ctxg_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(a, b);
    assert.equal(looksLikeUserToken(a), true);
    assert.equal(looksLikeUserToken(a.slice(0, -1)), false, 'a cut token is not one');
    assert.equal(looksLikeUserToken('a-single-mode-token-of-any-shape'), false);
  });

  it('keeps a SHA-256 of the token, the same for the same token and another for another', () => {
    const token = issueUserToken();
    const hash = hashUserToken(token);
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.equal(hashUserToken(token), hash);
    assert.notEqual(hashUserToken(issueUserToken()), hash);
    // FIPS 180-2's test vector: SHA-256 of "abc".
    assert.equal(hashUserToken('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('who may use a team endpoint for a project', () => {
  const user = (projects: TeamUser['projects'], revoked?: boolean): TeamUser => ({ name: 'alice', projects, tools: 'all', createdAt: new Date(), ...(revoked ? { revokedAt: new Date() } : {}) });

  it('lets a user of every project or of this project in', () => {
    assert.equal(refusalFor(user('all'), 'github.com/acme/shop'), undefined);
    assert.equal(refusalFor(user(['github.com/acme/shop']), 'github.com/acme/shop'), undefined);
  });

  it('refuses an unknown or revoked token with 401 and a user of other projects with 403, naming the project', () => {
    assert.equal(refusalFor(undefined, 'p')?.status, 401);
    assert.deepEqual(refusalFor(user('all', true), 'p'), { status: 401, reason: 'the token of user alice was revoked' });
    const other = refusalFor(user(['github.com/acme/site']), 'github.com/acme/shop');
    assert.equal(other?.status, 403);
    assert.match(other?.reason ?? '', /alice has no access to project github\.com\/acme\/shop \(it may use github\.com\/acme\/site\)/);
  });

  it('says what is wrong with a user name or project key, and accepts usual ones', () => {
    assert.equal(userNameProblem('alice'), undefined);
    assert.equal(userNameProblem('alice.smith@example.com'), undefined);
    assert.match(userNameProblem('al ice') ?? '', /not usable: use 1 to 64 letters/);
    assert.match(userNameProblem('-rf') ?? '', /starting with a letter or digit/);
    assert.equal(projectKeyProblem('github.com/acme/shop'), undefined);
    assert.match(projectKeyProblem('') ?? '', /cannot be empty/);
    assert.match(projectKeyProblem('a b') ?? '', /white space/);
  });
});
