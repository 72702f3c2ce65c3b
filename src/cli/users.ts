// `ctxgate users add|list|revoke`: the people of a team endpoint (issue 25). The token is made here,
// printed once at `add` and stored only as its hash; what stores the users is given (Postgres).
import { AppError, ErrorCode } from '../errors.ts';
import { hashUserToken, issueUserToken } from '../users/user-token.ts';
import type { TeamUser, UserStore } from '../users/user-store.ts';
import type { UsersAction } from './args.ts';

export async function runUsers(store: UserStore, action: UsersAction, json: boolean): Promise<string> {
  switch (action.verb) {
    case 'add': {
      const token = issueUserToken();
      const user = await store.add(action.name, hashUserToken(token), action.projects, action.tools);
      return [
        `user ${user.name} added; may use ${projectsText(user.projects)}`,
        `token (shown this once; ctxgate keeps only its hash): ${token}`,
        `${user.name} connects with it as the bearer token, e.g. CTXGATE_TOKEN=${token} ctxgate init --http http://HOST:8787/mcp`,
        `tools: ${toolsText(user.tools)}`,
      ].join('\n');
    }
    case 'grant': {
      const user = await store.grant(action.name, action.projects);
      if (!user) {
        throw new AppError(ErrorCode.NotFound, `there is no active user named ${action.name}`, { hint: `ctxgate users list shows the users; a new person needs ctxgate users add ${action.name} --project KEY` });
      }
      return `user ${user.name} may now use ${projectsText(user.projects)}; the token is unchanged`;
    }
    case 'list': {
      const users = await store.list();
      if (json) return JSON.stringify(users.map(userJson), null, 2);
      if (!users.length) return 'no users yet: ctxgate users add NAME [--project KEY] issues the first token';
      return formatTable(users);
    }
    case 'revoke': {
      if (!(await store.revoke(action.name))) {
        throw new AppError(ErrorCode.NotFound, `there is no active user named ${action.name}`, { hint: 'ctxgate users list shows the users and which are revoked' });
      }
      return `user ${action.name} revoked: the token stops working now (with 401 on its next request)`;
    }
  }
}

function projectsText(projects: TeamUser['projects']): string {
  return projects === 'all' ? 'every project' : `project${projects.length > 1 ? 's' : ''} ${projects.join(', ')}`;
}

function toolsText(tools: TeamUser['tools']): string {
  return tools === 'all' ? "every tool the server offers, ctx_run included: its commands run as the server's OS user (users add --tools gate,ctx_kb to narrow)" : `only ${tools.join(', ')}`;
}

function userJson(user: TeamUser): Record<string, unknown> {
  return { name: user.name, projects: user.projects, tools: user.tools, createdAt: user.createdAt.toISOString(), revokedAt: user.revokedAt?.toISOString() ?? null };
}

function when(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function formatTable(users: TeamUser[]): string {
  const rows = [['user', 'projects', 'tools', 'added', 'state'], ...users.map((u) => [u.name, u.projects === 'all' ? 'all' : u.projects.join(','), u.tools === 'all' ? 'all' : u.tools.join(','), when(u.createdAt), u.revokedAt ? `revoked ${when(u.revokedAt)}` : 'active'])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}
