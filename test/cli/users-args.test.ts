import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCommand } from '../../src/cli/args.ts';

const parse = (...argv: string[]) => parseCommand(argv, () => undefined);

describe('the users command line', () => {
  it('reads add with and without projects, list and revoke', () => {
    const all = parse('users', 'add', 'alice');
    assert.equal(all.kind, 'users');
    assert.deepEqual(all.kind === 'users' && all.action, { verb: 'add', name: 'alice', projects: 'all', tools: 'all' });
    const some = parse('users', 'add', 'bob', '--project', 'github.com/acme/shop', '--project', 'github.com/acme/site,github.com/acme/shop');
    assert.deepEqual(some.kind === 'users' && some.action, { verb: 'add', name: 'bob', projects: ['github.com/acme/shop', 'github.com/acme/site'], tools: 'all' });
    const listed = parse('users', 'list', '--json');
    assert.deepEqual(listed.kind === 'users' && [listed.action, listed.json], [{ verb: 'list' }, true]);
    const revoked = parse('users', 'revoke', 'alice');
    assert.deepEqual(revoked.kind === 'users' && revoked.action, { verb: 'revoke', name: 'alice' });
    const granted = parse('users', 'grant', 'bob', '--project', 'github.com/acme/docs');
    assert.deepEqual(granted.kind === 'users' && granted.action, { verb: 'grant', name: 'bob', projects: ['github.com/acme/docs'] });
  });

  it('takes a remote URL given as a project for the key a server works out from it, and a folder path as it is', () => {
    const urls = parse('users', 'add', 'bob', '--project', 'git@GitHub.com:Acme/Shop.git', '--project', 'https://github.com/acme/shop', '--project', '/srv/Projects/Site');
    assert.deepEqual(urls.kind === 'users' && urls.action, { verb: 'add', name: 'bob', projects: ['github.com/acme/shop', '/srv/Projects/Site'], tools: 'all' });
  });

  it('reads the tools a new user may use: names and groups, checked, in the server\'s order', () => {
    const some = parse('users', 'add', 'erin', '--tools', 'gate,ctx_kb');
    assert.deepEqual(some.kind === 'users' && some.action, { verb: 'add', name: 'erin', projects: 'all', tools: ['locate', 'read', 'search', 'explore', 'ctx_kb'] });
    const every = parse('users', 'add', 'erin', '--tools', 'all');
    assert.deepEqual(every.kind === 'users' && every.action, { verb: 'add', name: 'erin', projects: 'all', tools: 'all' });
    assert.throws(() => parse('users', 'add', 'erin', '--tools', 'shell'), /--tools: unknown tool 'shell'/);
    assert.throws(() => parse('users', 'grant', 'erin', '--project', 'x/y', '--tools', 'gate'), /--tools with 'ctxgate users' belongs to 'users add'/);
  });

  it('says what is missing or misplaced, with the usage hint', () => {
    const cases: [string[], RegExp][] = [
      [['users'], /'ctxgate users' needs add, grant, list or revoke/],
      [['users', 'remove', 'alice'], /unknown users command 'remove'; use add, grant, list or revoke/],
      [['users', 'grant', 'alice'], /'ctxgate users grant alice' needs the projects to grant, e\.g\. ctxgate users grant alice --project /],
      [['users', 'add'], /'ctxgate users add' needs a user name/],
      [['users', 'add', 'alice', 'bob'], /unexpected argument 'bob'/],
      [['users', 'add', 'al ice'], /user name 'al ice' is not usable/],
      [['users', 'revoke', 'alice', '--project', 'x'], /--project belongs to 'ctxgate users add' and 'ctxgate users grant'/],
      [['serve', '--project', 'x'], /--project belongs to 'ctxgate users add' and 'ctxgate users grant'/],
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
