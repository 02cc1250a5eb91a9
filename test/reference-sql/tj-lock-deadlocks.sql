-- Deadlocks (TDEADLOCK, docs/tj-format.md §5.3): the victim connection and the raw DeadlockConnectionIntersections,
-- split into wait-for edges by the caller (parsers/tj/locks/deadlock-edges.ts knows quoted commas); (file_key,
-- file_offset) joins each to its edges' culprits in tj-lock-culprits.sql.
SELECT ts, infobase, connect_id, user, context_first AS context, deadlock_intersections, file_key, file_offset
FROM tj_events
WHERE event = 'TDEADLOCK' AND ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
ORDER BY ts, connect_id
LIMIT {limit:UInt32}
