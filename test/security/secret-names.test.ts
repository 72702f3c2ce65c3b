// Every name the secret rules cover, in every spelling the rules accept (any case, backup and editor
// copies, under any folder), is judged secret: secretReason first asks whether the path holds one of
// secretNeedles, so a rule whose names hold no needle would be skipped unseen.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { secretReason } from '../../src/security/secret-files.ts';

const NAMED = ['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'id_ecdsa_sk', 'id_ed25519_sk', '.envrc', 'credentials.json', '.npmrc', '.netrc', '_netrc', '.git-credentials', '.pgpass', '.pypirc', '.htpasswd', 'terraform.tfstate', '.env', '.env.local', '.env.production'];
const EXTENSIONS = ['server.pem', 'tls.key', 'cert.p12', 'cert.pfx', 'putty.ppk', 'store.jks', 'release.keystore', 'prod.tfstate'];
const BACKUPS = ['~', '.bak', '.orig', '.old', '.save', '.backup', '.bk', '.tmp', '.swp', '.swo', '.swx'];

function spellings(name: string): string[] {
  const copies = [name, `#${name}#`, `.#${name}`, `.${name}.swp`, ...BACKUPS.map((b) => `${name}${b}`)];
  return copies.flatMap((c) => [c, c.toUpperCase(), `src/deep/${c}`, `A/B/${c.toUpperCase()}`]);
}

describe('secret names', () => {
  it('judges every covered name secret, whatever its case, copy or folder', () => {
    for (const name of [...NAMED, ...EXTENSIONS]) for (const p of spellings(name)) assert.ok(secretReason(p), p);
  });

  it('judges everything under a secret folder, and a docker config', () => {
    for (const dir of ['.env', '.aws', '.ssh', '.gnupg', '.kube']) for (const p of [`${dir}/config`, `x/${dir.toUpperCase()}/y/z.txt`]) assert.ok(secretReason(p), p);
    assert.ok(secretReason('home/.docker/config.json'));
  });

  it('leaves ordinary source paths alone', () => {
    for (const p of ['src/main.ts', 'drivers/net/ethernet/intel/e1000/e1000_main.c', 'keyboard.c', 'docs/credential-helpers.md', 'config.yaml', 'environment.ts']) assert.equal(secretReason(p), undefined, p);
  });
});
