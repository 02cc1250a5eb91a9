-- The lock resolver's lookups for a batch of pg_lock_episodes (docs/write-path.md §11): the 1C side of the waiter
-- (the first TJ event with its backend pid ending at or after the wait began, at most an hour after) and of its first
-- holder (the last one at or before, at most an hour before), as test/reference-sql/pg-lock-waits.sql finds
-- them over a window, from tj_backend_events (migration 050); n_facts counts both pids' events within an hour of
-- the wait's start: what the version counts.
WITH
    w AS
    (
        SELECT ts_end, file_key, file_offset, pid, toDateTime64(ts_start, 6) AS at, if(empty(holder_pids), toUInt32(0), holder_pids[1]) AS first_holder
        FROM pg_lock_episodes FINAL
        WHERE ts_end >= {lo:DateTime64(3)} AND ts_end <= {hi:DateTime64(3)} AND has({ids:Array(String)}, concat(file_key, '|', toString(file_offset)))
    ),
    facts AS
    (
        SELECT dbpid, ts, infobase, user, connect_id, context_first
        FROM tj_backend_events
        WHERE dbpid IN (SELECT arrayJoin([pid, first_holder]) FROM w)
          AND ts >= (SELECT min(at) FROM w) - INTERVAL 1 HOUR AND ts <= (SELECT max(at) FROM w) + INTERVAL 1 HOUR
    ),
    counted AS
    (
        SELECT w.file_key AS file_key, w.file_offset AS file_offset, toUInt64(count()) AS n_facts
        FROM w INNER JOIN facts AS f ON f.dbpid IN (w.pid, w.first_holder)
        WHERE f.ts >= w.at - INTERVAL 1 HOUR AND f.ts <= w.at + INTERVAL 1 HOUR
        GROUP BY file_key, file_offset
    ),
    sides AS
    (
        SELECT
            w.file_key AS file_key, w.file_offset AS file_offset,
            toUInt8(waiter.found = 1 AND waiter.ts <= w.at + INTERVAL 1 HOUR) AS waiter_found,
            waiter.infobase AS waiter_infobase, waiter.user AS waiter_user, waiter.connect_id AS waiter_connect_id, waiter.context_first AS waiter_context,
            toUInt8(holder.found = 1 AND holder.ts >= w.at - INTERVAL 1 HOUR) AS holder_found,
            holder.user AS holder_user, holder.connect_id AS holder_connect_id, holder.context_first AS holder_context, w.first_holder AS first_holder
        FROM w
        ASOF LEFT JOIN (SELECT *, toUInt8(1) AS found FROM facts) AS waiter ON w.pid = waiter.dbpid AND w.at <= waiter.ts
        ASOF LEFT JOIN (SELECT *, toUInt8(1) AS found FROM facts) AS holder ON w.first_holder = holder.dbpid AND w.at >= holder.ts
    )
SELECT s.*, n.n_facts AS n_facts
FROM sides AS s
LEFT JOIN counted AS n ON s.file_key = n.file_key AND s.file_offset = n.file_offset
