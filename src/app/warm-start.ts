// A server's warm start. With an index on disk (the project has been searched before), what a first
// search waits for starts beside the client's handshake instead of at that search: the index's
// check against the disk (code/index-reconcile.ts), the walk for the secret identities every
// search is judged against, and then the grep workers that read the candidates (each a second or two
// to start on a loaded machine). A server on a project never searched starts none of them.
import { knownSecrets } from '../security/secret-identities.ts';
import { sleep } from '../time/within.ts';
import type { AppContext } from './context.ts';

/** After the warm start, the grep workers wait this long more for a first call to come (and then for it to be answered). */
const WORKERS_AFTER_MS = 500;
/** The longest the workers' start waits for calls being answered. */
const WORKERS_QUIET_MAX_MS = 10_000;

export function warmStart(app: Pick<AppContext, 'code' | 'runtime' | 'workdirs' | 'grepPool' | 'foreground'>): void {
  if (!app.code.warm()) return;
  knownSecrets(app.runtime.fs, app.workdirs).catch(() => undefined);
  // The workers once the index is checked — one at once (a regex is matched off this thread: a first
  // search for one waits for a worker), the others once the first calls are answered: on two cores
  // their start (module loading, ~0.1–0.2 s of CPU each) competed with this thread's opening of the
  // database and with the first search itself, which reads up to a few hundred candidates of a
  // literal in this thread when no worker is ready (scan-run.ts).
  void (async () => {
    await app.code.warmed();
    app.grepPool?.warm(1);
    await app.foreground.quiet(WORKERS_QUIET_MAX_MS);
    await sleep(WORKERS_AFTER_MS, { unref: true });
    await app.foreground.quiet(WORKERS_QUIET_MAX_MS);
    app.grepPool?.warm();
  })();
}
