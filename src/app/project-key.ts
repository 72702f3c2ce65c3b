// The one place a server works out its project's key: storage.projectKey when set (Postgres), else
// the repository's normalised remote URL (vcs/project-key.ts). The knowledge base's rows and the
// team's users and calls go by it, so both ask here.
import type { StorageSettings } from '../config/storage.ts';
import type { Executor } from '../exec/executor.ts';
import type { Runtime } from '../runtime/types.ts';
import { defaultProjectKey } from '../vcs/project-key.ts';

export interface ProjectKeySource {
  storage: StorageSettings;
  runtime: Runtime;
  exec: Executor;
  projectRoot: string;
}

export async function projectKeyOf(app: ProjectKeySource): Promise<string> {
  if (app.storage.backend === 'postgres' && app.storage.projectKey) return app.storage.projectKey;
  return defaultProjectKey({ runtime: app.runtime, exec: app.exec }, app.projectRoot);
}

/** This checkout as a team's sources name it: `host:folder` (pg-store.ts origin). */
export function checkoutOrigin(runtime: Runtime, projectRoot: string): string {
  return `${runtime.bootIdentity()?.host || 'unknown-host'}:${projectRoot}`;
}
