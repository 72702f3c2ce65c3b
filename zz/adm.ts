import { readFileSync } from 'node:fs';
import { createNodeRuntime } from '../src/runtime/node.ts';
import { createAdmission } from '../src/workspace/grep/admission.ts';
import { admitFiles } from '../src/workspace/grep/filelist.ts';
const rt = createNodeRuntime();
const root = '/tmp/linux-full/linux-source-6.1';
const files = readFileSync(process.argv[2]!, 'utf8').trim().split('\n');
const workdirs = { dirs: [root] };
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  const adm = await createAdmission({ fs: rt.fs, workdirs } as never, { path: root, real: root, workdir: root, relative: '', exists: true } as never, {});
  const t1 = performance.now();
  const a = admitFiles(rt.fs, adm, files, { stat: false, statFolders: false });
  const t2 = performance.now();
  const b = admitFiles(rt.fs, adm, files, { stat: false });
  const t3 = performance.now();
  console.log(`admission ${(t1 - t0).toFixed(1)} ms, first cut ${(t2 - t1).toFixed(1)} ms (${a.length}), with folders ${(t3 - t2).toFixed(1)} ms (${b.length})`);
}
