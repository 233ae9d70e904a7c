/** A SQLite connection as every part of the SQLite adapter opens it (Storage): WAL, the chosen sync level, a small page cache; and its prepared statements, kept per SQL text. */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/** FULL syncs the WAL at every commit; NORMAL survives a process crash but not a power loss. */
export type Synchronous = "FULL" | "NORMAL";

/** Opens (creating when missing) the database file, or ":memory:", with the adapter's settings. */
export function openSqliteDatabase(file: string, synchronous: Synchronous): Database.Database {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  // Another connection (the writer thread, the admin command) may hold the write lock for a moment.
  db.pragma("busy_timeout = 5000");
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma("foreign_keys = ON");
  // A 4 MiB page cache (D-83): the hot pages of the first pages and the indexes; the rest comes
  // from the OS's file cache. A larger one counts in the RSS and made every commit slower (SQLite
  // walks the cache at each one): 16 MiB measured no faster for lists and slower for creates. No
  // memory map either: every page it touched counted in the RSS too, and it read no faster.
  db.pragma(`cache_size = -${4 * 1024}`);
  return db;
}

/**
 * How many prepared statements of each kind a connection keeps: a client's pages use a few shapes and
 * limits, while a statement of a filtered page holds some 25 KB (400 of them grew the RSS by about 10 MiB).
 */
const maxCachedStatements = 64;

/** Prepared statements by SQL text, prepared once while in use; the least recently used dropped past a bound (filtered pages make many texts). */
export class StatementCache {
  private readonly objects = new Map<string, Database.Statement>();
  private readonly arrays = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  /** A statement whose rows are objects. */
  statement(sql: string): Database.Statement {
    return cached(this.objects, sql, () => this.db.prepare(sql));
  }

  /** A statement whose rows are arrays (no object per row). */
  rawStatement(sql: string): Database.Statement {
    return cached(this.arrays, sql, () => this.db.prepare(sql).raw(true));
  }
}

function cached(
  cache: Map<string, Database.Statement>,
  sql: string,
  prepare: () => Database.Statement,
): Database.Statement {
  let prepared = cache.get(sql);
  if (prepared) {
    // Most recently used last: a Map keeps insertion order.
    cache.delete(sql);
  } else {
    prepared = prepare();
    if (cache.size >= maxCachedStatements) cache.delete(cache.keys().next().value as string);
  }
  cache.set(sql, prepared);
  return prepared;
}
