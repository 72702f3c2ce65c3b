// run_task: structured build and test commands with a fixed argv and no shell. Targets and args are
// checked so that nothing can smuggle in another command or point the tool somewhere else.
import { AppError, ErrorCode } from '../errors.ts';

export const TASK_KINDS = ['go_test', 'go_build', 'go_vet', 'npm_test', 'npm_run_build', 'cargo_test', 'cargo_build', 'make', 'custom'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

/** Options that would read another build file, run elsewhere, or run other programs. */
const REFUSED_OPTIONS: Partial<Record<TaskKind, RegExp>> = {
  make: /^(-f|--file|--makefile|-C|--directory|-I|--include-dir|-E|--eval)(=|$)|^-[a-zA-Z]*[fCIE]/,
  go_test: /^-(C|exec|toolexec|modfile|overlay)(=|$)/,
  go_build: /^-(C|exec|toolexec|modfile|overlay|o)(=|$)/,
  go_vet: /^-(C|vettool|toolexec|modfile|overlay)(=|$)/,
  cargo_test: /^(--manifest-path|--config|-Z|--target-dir|-C)(=|$)/,
  cargo_build: /^(--manifest-path|--config|-Z|--target-dir|-C)(=|$)/,
  npm_test: /^(--prefix|-C|--workspace|-w|--userconfig|--globalconfig)(=|$)/,
  npm_run_build: /^(--prefix|-C|--workspace|-w|--userconfig|--globalconfig)(=|$)/,
};

const SAFE_TARGET = /^[A-Za-z0-9_.@+/:=][A-Za-z0-9_.@+/:=,-]*$/;

function checkArg(kind: TaskKind, value: string, what: string): void {
  if (/[\0\n\r]/.test(value)) throw new AppError(ErrorCode.InvalidArgument, `${what} contains a control character`, { hint: 'pass plain arguments' });
  const refused = REFUSED_OPTIONS[kind];
  if (refused?.test(value)) {
    throw new AppError(ErrorCode.InvalidArgument, `${what} '${value}' is not allowed for ${kind}`, {
      hint: 'options that pick another build file, folder or tool are refused; use cwd to choose the folder',
    });
  }
}

function checkTarget(kind: TaskKind, target: string): void {
  if (!SAFE_TARGET.test(target) || target.includes('..')) {
    throw new AppError(ErrorCode.InvalidArgument, `target '${target}' is not a plain ${kind === 'make' ? 'make target' : 'package or test name'}`, {
      hint: 'targets are names like ./..., ./pkg/..., build or TestParse; shell characters, spaces, .. and leading - are refused',
    });
  }
}

/** The argv of a task: executable first. */
export function taskArgv(kind: TaskKind, target: string | undefined, args: readonly string[]): string[] {
  if (target !== undefined) checkTarget(kind, target);
  for (const [i, a] of args.entries()) checkArg(kind, a, `args[${i}]`);
  switch (kind) {
    case 'go_test':
      return ['go', 'test', ...args, target ?? './...'];
    case 'go_build':
      return ['go', 'build', ...args, target ?? './...'];
    case 'go_vet':
      return ['go', 'vet', ...args, target ?? './...'];
    case 'npm_test':
      return ['npm', 'test', ...(args.length ? ['--', ...args] : [])];
    case 'npm_run_build':
      return ['npm', 'run', 'build', ...(args.length ? ['--', ...args] : [])];
    case 'cargo_test':
      return ['cargo', 'test', ...(target ? [target] : []), ...args];
    case 'cargo_build':
      return ['cargo', 'build', ...args];
    case 'make':
      return ['make', ...args, ...(target ? [target] : [])];
    case 'custom': {
      const [exe, ...rest] = args;
      if (!exe) throw new AppError(ErrorCode.InvalidArgument, 'custom needs args[0] as the executable', { hint: 'e.g. {kind:"custom", args:["pytest","-q"]}' });
      return [exe, ...rest];
    }
  }
}
