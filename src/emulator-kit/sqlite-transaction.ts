/**
 * One SQLite transaction around `fn`: committed when it returns, rolled back when it throws, so a
 * request that fails half-way leaves the emulator's store as it was, as a real server's would be.
 * A call inside a transaction already open joins it (SQLite has no nested BEGIN).
 */
import type { DatabaseSync } from "node:sqlite";

export function inTransaction<T>(db: DatabaseSync, fn: () => T): T {
  if (db.isTransaction) return fn();
  db.exec("BEGIN");
  try {
    const result = fn();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    // SQLite ends some transactions itself on an error; then there is nothing to roll back.
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}
