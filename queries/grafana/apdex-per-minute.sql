-- APDEX of each export key operation per minute, against its T, for Grafana's live-run dashboard
-- (deploy/grafana/, docs/deploy.md §5): each point is what `report apdex` gives for that one minute, by the same
-- rules (queries/reports/apdex.sql): T from key_operations, else the latest T the export carried in the minute;
-- S, A from the 10 ms buckets of apdex_minute; rounded half-up to 3 decimals. TJ operations defined by context rules
-- in perfpipe's config are not here: Grafana does not read that config. The series is named with its T.
SELECT time, concat(operation, ' (T ', toString(target_s), ' s)') AS operation, apdex
FROM
(
    SELECT
        r.minute AS time,
        r.operation AS operation,
        multiIf(s.target_s > 0, s.target_s, r.export_target_s) AS target_s,
        r.n AS n,
        toUInt64(round(assumeNotNull(target_s) * 100)) AS t_10ms,
        arraySum(arrayMap((b, c) -> if(b <= t_10ms, c, 0), r.buckets.1, r.buckets.2)) AS satisfied,
        arraySum(arrayMap((b, c) -> if(b > t_10ms AND b <= 4 * t_10ms, c, 0), r.buckets.1, r.buckets.2)) AS tolerating,
        intDiv((2 * satisfied + tolerating) * 1000 + n, 2 * n) / 1000 AS apdex
    FROM
    (
        SELECT
            minute, operation, sum(n) AS n,
            CAST(sumMapMerge(buckets_10ms) AS Tuple(Array(UInt32), Array(UInt64))) AS buckets,
            nullIf(argMaxIfMerge(export_target_s), 0) AS export_target_s
        FROM apdex_minute
        WHERE minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
        GROUP BY minute, operation
    ) AS r
    LEFT JOIN (SELECT name, target_s FROM key_operations FINAL) AS s ON s.name = r.operation
)
WHERE target_s IS NOT NULL
ORDER BY time, operation
