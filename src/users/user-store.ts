// The people of a team endpoint, as the command line and the HTTP endpoint see them, whatever
// stores them (Postgres: users/postgres-users.ts).

export interface TeamUser {
  name: string;
  /** The project keys the user's token may be used for; 'all' for every project. */
  projects: string[] | 'all';
  /** The tools the user's sessions offer and answer; 'all' for every tool the server offers. */
  tools: string[] | 'all';
  createdAt: Date;
  revokedAt?: Date;
}

export interface UserStore {
  /** Records a new user with the hash of its token; an error when the name is taken (revoked names too). */
  add(name: string, tokenHash: string, projects: string[] | 'all', tools?: string[] | 'all'): Promise<TeamUser>;
  /** Adds projects to an active user's (nothing to add when it has every project); undefined when there is no such user. */
  grant(name: string, projects: readonly string[]): Promise<TeamUser | undefined>;
  list(): Promise<TeamUser[]>;
  /** Revokes the user's token; false when there is no such user (or it was revoked already). */
  revoke(name: string): Promise<boolean>;
  /** The user a token hash belongs to, revoked or not. */
  findByTokenHash(tokenHash: string): Promise<TeamUser | undefined>;
}

/** Why a request with this user's token is refused for `projectKey`, or undefined when it may go on. */
export type Refusal = { status: 401; reason: string } | { status: 403; reason: string };

export function refusalFor(user: TeamUser | undefined, projectKey: string): Refusal | undefined {
  if (!user) return { status: 401, reason: 'the bearer token is not known to this endpoint' };
  if (user.revokedAt) return { status: 401, reason: `the token of user ${user.name} was revoked` };
  if (user.projects !== 'all' && !user.projects.includes(projectKey)) {
    return { status: 403, reason: `user ${user.name} has no access to project ${projectKey} (it may use ${user.projects.join(', ')})` };
  }
  return undefined;
}
