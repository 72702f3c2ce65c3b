// Advisory locks: Postgres's own locks on a name of ours, held until the transaction ends (so a
// crashed holder's lock goes with its connection). One 64-bit key per (namespace, name).
import type { TransactionSql } from 'postgres';

/** Waits for the transaction-scoped lock on (namespace, name): e.g. ('migrate', 'kb'), (projectKey, sourceKey). */
export async function advisoryXactLock(tx: TransactionSql, namespace: string, name: string): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`${namespace}\n${name}`}, 0))`;
}

/** Waits for the shared form of the lock on (namespace, name): many holders at once, none while one holds it exclusively. */
export async function advisoryXactLockShared(tx: TransactionSql, namespace: string, name: string): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock_shared(hashtextextended(${`${namespace}\n${name}`}, 0))`;
}

/** Waits for the locks on several names of one namespace in one statement, taken in sorted order. */
export async function advisoryXactLocks(tx: TransactionSql, namespace: string, names: readonly string[]): Promise<void> {
  const keys = [...new Set(names)].sort().map((name) => `${namespace}\n${name}`);
  if (!keys.length) return;
  // The sorted subquery fixes the order the locks are taken in: two batches never wait in a circle.
  await tx`SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0))) FROM (SELECT k FROM unnest(${keys}::text[]) AS k ORDER BY k) AS sorted`;
}
