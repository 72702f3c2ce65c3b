// Advisory locks: Postgres's own locks on a name of ours, held until the transaction ends (so a
// crashed holder's lock goes with its connection). One 64-bit key per (namespace, name).
import type { TransactionSql } from 'postgres';

/** Waits for the transaction-scoped lock on (namespace, name): e.g. ('migrate', 'kb'), (projectKey, sourceKey). */
export async function advisoryXactLock(tx: TransactionSql, namespace: string, name: string): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`${namespace}\n${name}`}, 0))`;
}
