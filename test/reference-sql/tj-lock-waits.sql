-- Managed-lock waits (TLOCK that had to wait: WaitConnections not empty, docs/tj-format.md §5.1) per lock
-- space: how many, total and longest wait, and how many connections waited.
SELECT
    infobase,
    arrayJoin(regions) AS region,
    count() AS waits,
    round(sum(duration_us) / 1000, 1) AS total_wait_ms,
    round(max(duration_us) / 1000, 1) AS max_wait_ms,
    uniqExact(connect_id) AS waiting_connections
FROM tj_events
WHERE event = 'TLOCK' AND notEmpty(wait_connections) AND ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
GROUP BY infobase, region
ORDER BY total_wait_ms DESC, infobase, region
LIMIT {limit:UInt32}
