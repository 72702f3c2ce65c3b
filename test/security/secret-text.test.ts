import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { secretInText } from '../../src/security/secret-text.ts';

describe('secrets written into a command line', () => {
  it('finds a bearer token, a secret option or assignment, a secret query parameter and known access tokens', () => {
    const found: [string, string][] = [
      ['curl -H "Authorization: Bearer 9f8e7d6c5b4a39281706" https://example.com/v1/me', 'a bearer token'],
      ['curl -H "Authorization: token 9f8e7d6c5b4a39281706" https://api.github.com/user', 'a bearer token'],
      ['mysql --password=hunter2hunter2 -u root', 'a secret option'],
      ['vault login --token s.9f8e7d6c5b4a3928', 'a secret option'],
      ['curl -u admin:hunter2 https://example.com/', 'a secret option'],
      ['curl --user=admin:hunter2 https://example.com/', 'a secret option'],
      ['GITHUB_TOKEN=abc123def456 npm publish', 'a secret assignment'],
      ['export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENG', 'a secret assignment'],
      ['curl "https://example.com/feed?access_token=abc123def"', 'a URL with a secret parameter'],
      ['curl https://maps.example.com/api?key=AIzaSomething', 'a URL with a secret parameter'],
      ['git clone https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r', 'a URL with a token as its user'],
      ['echo ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'an access token'],
      ['OPENAI=sk-proj-abcdefghijklmnopqrstuvwxyz python run.py', 'an access token'],
      ['aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE', 'an access token'],
    ];
    for (const [text, kind] of found) assert.equal(secretInText(text), kind, text);
  });

  it('leaves commands that only name where a secret is, or talk about tokens, alone', () => {
    for (const text of [
      'curl -H "Authorization: Bearer $TOKEN" https://example.com/v1/me',
      'curl -H "Authorization: Bearer $' + '{GITHUB_TOKEN}" https://example.com',
      'docker login --password-stdin -u me',
      'gh auth login --with-token < token.txt',
      'TOKEN_FILE=/run/secrets/token ./deploy.sh',
      'GITHUB_TOKEN=$(cat ~/.token) npm publish',
      'AUTHOR=me KEYBOARD=us make',
      'grep -rn "token validation" src',
      'rg --password-file x',
      'npm test -- --grep "bearer"',
      'curl https://example.com/docs?page=2',
      'curl -u admin: https://example.com/',
      'curl -u "admin:$PASSWORD" https://example.com/',
    ]) {
      assert.equal(secretInText(text), undefined, text);
    }
  });

  it('takes time in proportion to the text, whatever it holds', () => {
    const long = `${'A'.repeat(200_000)} ${'--x'.repeat(50_000)} ${'k=v&'.repeat(50_000)} ${'Bearer '.repeat(20_000)}`;
    assert.equal(secretInText(long), undefined);
  });
});
