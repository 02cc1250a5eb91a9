-- Managed-lock waits (TLOCK that had to wait, docs/tj-format.md §5.1) per lock space, from the stored episodes
-- (§5.5): how many, total and longest wait, and how many connections waited. A request on two spaces counts in both.
SELECT
    infobase,
    arrayJoin(regions) AS region,
    count() AS waits,
    round(sum(wait_us) / 1000, 1) AS total_wait_ms,
    round(max(wait_us) / 1000, 1) AS max_wait_ms,
    uniqExact(victim_connect_id) AS waiting_connections
FROM tj_lock_episodes FINAL
WHERE kind = 'wait' AND ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
GROUP BY infobase, region
ORDER BY total_wait_ms DESC, infobase, region
LIMIT {limit:UInt32}
