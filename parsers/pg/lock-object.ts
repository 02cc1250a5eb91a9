// Reads the lock object of a lock-wait line (lmgr.c DescribeLockTag: OIDs, not names) in any catalog language,
// and restates it in English so that the same wait reads the same from an English or a Russian server.
import type { PgLock } from '../../schemas/pg-event.js';
import { createCatalogMatcher } from './message-patterns.js';

export type LockObject = Pick<PgLock, 'object_kind' | 'object' | 'relation_oid' | 'database_oid' | 'page' | 'tuple' |
  'transaction_id' | 'virtual_transaction' | 'lock_keys'>;

const KINDS: ReadonlyArray<readonly [string, PgLock['object_kind']]> = [
  ['relation %u of database %u', 'relation'],
  ['extension of relation %u of database %u', 'extension'],
  ['page %u of relation %u of database %u', 'page'],
  ['tuple (%u,%u) of relation %u of database %u', 'tuple'],
  ['transaction %u', 'transaction'],
  ['virtual transaction %d/%u', 'virtual_transaction'],
  ['speculative token %u of transaction %u', 'speculative_token'],
  ['object %u of class %u of database %u', 'object'],
  ['advisory lock [%u,%u,%u,%u]', 'advisory'],
  ['pg_database.datfrozenxid of database %u', 'frozen_id'],
  // Not in the PG15 catalog (English only): user locks and PG16+ remote transactions.
  ['user lock [%u,%u,%u]', 'user_lock'],
  ['remote transaction %u of subscription %u of database %u', 'remote_transaction'],
];
const kindById = new Map(KINDS);
const matcher = createCatalogMatcher(KINDS.map(([id]) => id));

const EMPTY: LockObject = {
  object_kind: 'unknown', object: '', relation_oid: null, database_oid: null, page: null, tuple: null,
  transaction_id: null, virtual_transaction: null, lock_keys: null,
};

export function parseLockObject(text: string): LockObject {
  const m = matcher.match(text);
  if (m === null) return { ...EMPTY, object: text };
  const a = m.args.map(Number);
  const n = (i: number): number => a[i] ?? 0;
  const o: LockObject = { ...EMPTY, object_kind: kindById.get(m.id) ?? 'unknown' };
  switch (o.object_kind) {
    case 'relation': o.relation_oid = n(0); o.database_oid = n(1); o.object = `relation ${n(0)} of database ${n(1)}`; break;
    case 'extension': o.relation_oid = n(0); o.database_oid = n(1); o.object = `extension of relation ${n(0)} of database ${n(1)}`; break;
    case 'page': o.page = n(0); o.relation_oid = n(1); o.database_oid = n(2); o.object = `page ${n(0)} of relation ${n(1)} of database ${n(2)}`; break;
    case 'tuple':
      o.tuple = [n(0), n(1)]; o.relation_oid = n(2); o.database_oid = n(3);
      o.object = `tuple (${n(0)},${n(1)}) of relation ${n(2)} of database ${n(3)}`; break;
    case 'transaction': o.transaction_id = n(0); o.object = `transaction ${n(0)}`; break;
    case 'virtual_transaction': o.virtual_transaction = `${n(0)}/${n(1)}`; o.object = `virtual transaction ${n(0)}/${n(1)}`; break;
    case 'speculative_token': o.transaction_id = n(1); o.object = `speculative token ${n(0)} of transaction ${n(1)}`; break;
    case 'object': o.database_oid = n(2); o.object = `object ${n(0)} of class ${n(1)} of database ${n(2)}`; break;
    case 'advisory': o.database_oid = n(0); o.lock_keys = [n(0), n(1), n(2), n(3)]; o.object = `advisory lock [${a.join(',')}]`; break;
    case 'frozen_id': o.database_oid = n(0); o.object = `pg_database.datfrozenxid of database ${n(0)}`; break;
    case 'user_lock': o.lock_keys = [n(0), n(1), n(2)]; o.object = `user lock [${a.join(',')}]`; break;
    case 'remote_transaction':
      o.transaction_id = n(0); o.database_oid = n(2); o.object = `remote transaction ${n(0)} of subscription ${n(1)} of database ${n(2)}`; break;
    default: o.object = text;
  }
  return o;
}

const CONTEXT_IDS = [
  'while updating tuple (%u,%u) in relation \"%s\"', 'while deleting tuple (%u,%u) in relation \"%s\"',
  'while locking tuple (%u,%u) in relation \"%s\"', 'while inserting index tuple (%u,%u) in relation \"%s\"',
  'while checking uniqueness of tuple (%u,%u) in relation \"%s\"', 'while rechecking updated tuple (%u,%u) in relation \"%s\"',
].map((s) => s.replace(/\\"/g, '"'));
const contextMatcher = createCatalogMatcher(CONTEXT_IDS);

/** Relation name and tuple from a CONTEXT line `while updating tuple (0,1) in relation "accounts"`. */
export function relationFromContext(context: string | null): { name: string; tuple: [number, number] } | null {
  if (context === null) return null;
  const m = contextMatcher.match(context);
  if (m === null) return null;
  return { name: m.args[2] ?? '', tuple: [Number(m.args[0]), Number(m.args[1])] };
}
