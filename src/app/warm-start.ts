// A server's warm start. With an index on disk (the project has been searched before), what a first
// search waits for starts beside the client's handshake instead of at that search: the index's
// check against the disk (code/index-reconcile.ts), the walk for the secret identities every
// search is judged against, and then the grep workers that read the candidates (each a second or two
// to start on a loaded machine). A server on a project never searched starts none of them.
import { knownSecrets } from '../security/secret-identities.ts';
import type { AppContext } from './context.ts';

export function warmStart(app: Pick<AppContext, 'code' | 'runtime' | 'workdirs' | 'grepPool'>): void {
  if (!app.code.warm()) return;
  knownSecrets(app.runtime.fs, app.workdirs).catch(() => undefined);
  // The workers once the index is checked: on two cores their start (module loading, ~0.1–0.2 s of
  // CPU each) competed with this thread's opening of the database; a search meanwhile reads a few
  // hundred candidates in this thread (scan-run.ts).
  void app.code.warmed().then(() => app.grepPool?.warm());
}
