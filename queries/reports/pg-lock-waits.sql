-- PostgreSQL lock-wait episodes in a window with the 1C side of the waiter and of its (first) holder, as the lock
-- resolver decided them (docs/tj-format.md §5.5): TJ DB events carry the PostgreSQL backend pid as `dbpid`; the
-- waiter's statement is its first TJ event ending after the wait began, the holder is named by its last TJ event
-- before the wait began. `status` says whether both were found yet. Episodes ending in [from, to).
SELECT
    toString(ts_start) AS ts_start, toString(ts_end) AS ts_end, pid, mode, object, outcome, wait_ms, holder_pids, queue_pids,
    statement, user AS pg_user, database, application,
    waiter_infobase, waiter_user AS waiter_1c_user, waiter_connect_id, waiter_context,
    holder_user AS holder_1c_user, holder_connect_id, holder_context, status
FROM (SELECT *, ts_start AS started FROM pg_lock_episodes FINAL WHERE ts_end >= {from:DateTime64(3)} AND ts_end < {to:DateTime64(3)})
ORDER BY started
LIMIT {limit:UInt32}
