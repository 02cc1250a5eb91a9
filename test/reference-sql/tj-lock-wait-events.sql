-- Managed-lock waits one by one (TLOCK with WaitConnections, docs/tj-format.md §5.1): who waited, on which lock
-- spaces, how long, and for which connections. tj-lock-waits.sql sums the same events per lock space; (file_key,
-- file_offset) joins each to its culprits in tj-lock-culprits.sql.
SELECT
    ts, infobase, connect_id, user, context_first AS context, regions,
    round(duration_us / 1000, 1) AS wait_ms, wait_connections,
    file_key, file_offset
FROM tj_events
WHERE event = 'TLOCK' AND notEmpty(wait_connections) AND ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
ORDER BY ts, connect_id
LIMIT {limit:UInt32}
