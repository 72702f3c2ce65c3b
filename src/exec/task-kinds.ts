// The build and test kinds run_task knows. ctx_run's declaration lists them; what each may take
// (src/exec/tasks.ts, task-options.ts, task-env.ts) is the handler's, loaded with the first call.
export const TASK_KINDS = ['go_test', 'go_build', 'go_vet', 'npm_test', 'npm_run_build', 'cargo_test', 'cargo_build', 'make', 'custom'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
