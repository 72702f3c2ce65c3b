import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCommand } from '../../src/cli/args.ts';

const parse = (...argv: string[]) => parseCommand(argv, () => undefined);

describe('the users command line', () => {
  it('reads add with and without projects, list and revoke', () => {
    const all = parse('users', 'add', 'alice');
    assert.equal(all.kind, 'users');
    assert.deepEqual(all.kind === 'users' && all.action, { verb: 'add', name: 'alice', projects: 'all' });
    const some = parse('users', 'add', 'bob', '--project', 'github.com/acme/shop', '--project', 'github.com/acme/site,github.com/acme/shop');
    assert.deepEqual(some.kind === 'users' && some.action, { verb: 'add', name: 'bob', projects: ['github.com/acme/shop', 'github.com/acme/site'] });
    const listed = parse('users', 'list', '--json');
    assert.deepEqual(listed.kind === 'users' && [listed.action, listed.json], [{ verb: 'list' }, true]);
    const revoked = parse('users', 'revoke', 'alice');
    assert.deepEqual(revoked.kind === 'users' && revoked.action, { verb: 'revoke', name: 'alice' });
  });

  it('says what is missing or misplaced, with the usage hint', () => {
    const cases: [string[], RegExp][] = [
      [['users'], /'ctxgate users' needs add, list or revoke/],
      [['users', 'remove', 'alice'], /unknown users command 'remove'; use add, list or revoke/],
      [['users', 'add'], /'ctxgate users add' needs a user name/],
      [['users', 'add', 'alice', 'bob'], /unexpected argument 'bob'/],
      [['users', 'add', 'al ice'], /user name 'al ice' is not usable/],
      [['users', 'revoke', 'alice', '--project', 'x'], /--project belongs to 'ctxgate users add'/],
      [['serve', '--project', 'x'], /--project belongs to 'ctxgate users add'/],
      [['users', 'add', 'alice', '--project', 'a b'], /--project: project key 'a b' holds white space/],
      [['users', 'add', 'alice', '--json'], /--json belongs to 'ctxgate users list'/],
      [['users', 'list', 'alice'], /unexpected argument 'alice' after users list/],
      [['users', 'add', 'alice', '--project'], /--project needs a value/],
    ];
    for (const [argv, message] of cases) {
      assert.throws(
        () => parse(...argv),
        (error: Error & { code?: string; hint?: string }) => message.test(error.message) && error.code === 'USAGE' && error.hint === 'run ctxgate --help for the usage',
        argv.join(' '),
      );
    }
  });
});
