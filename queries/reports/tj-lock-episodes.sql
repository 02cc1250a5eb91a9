-- 1C managed-lock episodes of one kind in a window — waits (TLOCK that waited), timeouts (TTIMEOUT) or deadlocks
-- (TDEADLOCK) — as the lock resolver decided them when they arrived (docs/tj-format.md §5.5): the victim, its
-- culprit entries (culprit connection or deadlock edge, its transaction and the lock that conflicted) and how far
-- they are worked out (`status`). The latest version of each episode (FINAL). Events ending in [from, to).
SELECT
    kind, ts, infobase, victim_connect_id, victim_user, victim_context, regions, round(wait_us / 1000, 1) AS wait_ms,
    wait_connections, deadlock_intersections, status, culprits
FROM tj_lock_episodes FINAL
WHERE kind = {kind:String} AND ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
ORDER BY ts, victim_connect_id, file_key, file_offset
LIMIT {limit:UInt32}
