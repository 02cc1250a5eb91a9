-- PostgreSQL lock-wait episodes in a window with the 1C side of the waiter and of its (first) holder: TJ DB
-- events carry the PostgreSQL backend pid as `dbpid` (docs/tj-format.md §3). The TJ journal writes an event at its
-- end, so the waiter's statement is its first TJ event ending after the wait began; the holder took the lock
-- before the wait, so it is named by its last TJ event before the wait began.
SELECT
    toString(w.ts_start) AS ts_start, toString(w.ts_end) AS ts_end, w.pid AS pid, w.mode AS mode, w.object AS object,
    w.outcome AS outcome, w.wait_ms AS wait_ms, w.holder_pids AS holder_pids, w.queue_pids AS queue_pids,
    w.statement AS statement, w.user AS pg_user, w.database AS database, w.application AS application,
    waiter.infobase AS waiter_infobase, waiter.user AS waiter_1c_user, waiter.connect_id AS waiter_connect_id,
    waiter.context_first AS waiter_context,
    holder.user AS holder_1c_user, holder.connect_id AS holder_connect_id, holder.context_first AS holder_context
FROM
(
    SELECT *, toDateTime64(ts_start, 6) AS at, if(empty(holder_pids), toUInt32(0), holder_pids[1]) AS first_holder
    FROM pg_lock_waits
    WHERE ts_end >= {from:DateTime64(3)} AND ts_end < {to:DateTime64(3)}
) AS w
ASOF LEFT JOIN
tj_dbpid_events(from = {from:DateTime64(3)}, to = {to:DateTime64(3)}) AS waiter ON w.pid = waiter.dbpid AND w.at <= waiter.ts
ASOF LEFT JOIN
tj_dbpid_events(from = {from:DateTime64(3)}, to = {to:DateTime64(3)}) AS holder ON w.first_holder = holder.dbpid AND w.at >= holder.ts
ORDER BY w.ts_start
LIMIT {limit:UInt32}
