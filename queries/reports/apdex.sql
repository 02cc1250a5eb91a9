-- APDEX of key operations in a window (docs/apdex.md §1, §2.1): per operation, then two overall rows.
-- Satisfied d ≤ T, tolerating T < d ≤ 4T, frustrated d > 4T; apdex = (S + A/2) / N, rounded half-up to 3
-- decimals in integer arithmetic (a float round() would break ties to even). T comes from key_operations
-- when set there, else the latest T the export carried (target_from says which); no T → apdex NULL.
-- Counts come from apdex_minute's 10 ms buckets, so a T changed in key_operations applies to past data at
-- once. The window is applied to whole minutes: a minute counts when it overlaps [from, to) (a 9 s run still
-- has its minute); pass from/to as
-- Unix seconds (a date text is read in the server's time zone).
-- SSL shows "all frustrated" as 0.001 (its +0.001 display rule); this report shows the plain value 0.
-- Overall rows: `overall_count_weighted` sums S, A, N over the operations that have a T (the TJ-style
-- total); `overall_priority_weighted` is SSL's «Общая производительность системы»: Σ wᵢ·APDEXᵢ / Σ wᵢ with
-- wᵢ = 1 − (pᵢ − 1)/Pmax, independent of call counts, over the operations that have both T and a priority.
-- Its N, S, A, F columns are plain sums, shown for context only.
WITH
    rollup AS
    (
        SELECT
            operation,
            sum(n) AS n,
            sumMapMerge(buckets_10ms) AS buckets,
            sum(duration_us_sum) AS duration_us_sum,
            nullIf(argMaxIfMerge(export_target_s), 0) AS export_target_s,
            nullIf(argMaxIfMerge(export_priority), 0) AS export_priority,
            nullIf(argMaxIfMerge(export_min_level), 0) AS export_min_level
        FROM apdex_minute
        WHERE minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
        GROUP BY operation
    ),
    per_op AS
    (
        SELECT
            r.operation AS operation,
            if(s.target_s > 0, s.target_s, r.export_target_s) AS target_s,
            multiIf(s.target_s > 0, 'key_operations', r.export_target_s IS NOT NULL, 'export', '') AS target_from,
            if(s.priority IS NOT NULL, s.priority, r.export_priority) AS priority,
            if(s.min_level IS NOT NULL, s.min_level, r.export_min_level) AS min_level,
            r.n AS n,
            toUInt64(round(assumeNotNull(target_s) * 100)) AS t_10ms,
            if(target_s IS NULL, NULL, arraySum(arrayMap((b, c) -> if(b <= t_10ms, c, 0), r.buckets.1, r.buckets.2))) AS satisfied,
            if(target_s IS NULL, NULL, arraySum(arrayMap((b, c) -> if(b > t_10ms AND b <= 4 * t_10ms, c, 0), r.buckets.1, r.buckets.2))) AS tolerating,
            r.duration_us_sum / r.n / 1e6 AS avg_s
        FROM rollup AS r
        LEFT JOIN (SELECT name, target_s, priority, min_level FROM key_operations FINAL) AS s ON s.name = r.operation
    ),
    report_rows AS
    (
        SELECT
            'operation' AS scope, operation, target_from, target_s, priority, min_level, n, satisfied, tolerating,
            n - satisfied - tolerating AS frustrated,
            if(target_s IS NULL, NULL, intDiv((2 * satisfied + tolerating) * 1000 + n, 2 * n) / 1000) AS apdex,
            round(avg_s, 3) AS avg_s
        FROM per_op
        UNION ALL
        SELECT
            'overall_count_weighted', '(all operations with a T, count-weighted)', '', NULL, NULL, NULL,
            sum(n), sum(satisfied), sum(tolerating), sum(n - satisfied - tolerating),
            intDiv((2 * sum(satisfied) + sum(tolerating)) * 1000 + sum(n), 2 * sum(n)) / 1000,
            round(sum(avg_s * n) / sum(n), 3)
        FROM per_op
        WHERE target_s IS NOT NULL
        HAVING sum(n) > 0
        UNION ALL
        SELECT
            'overall_priority_weighted', '(Общая производительность системы, 1C priority-weighted)', '', NULL, NULL, NULL,
            sum(n), sum(satisfied), sum(tolerating), sum(n - satisfied - tolerating),
            floor(sum(w * (2 * satisfied + tolerating) / (2 * n)) / sum(w) * 1000 + 0.5) / 1000,
            round(sum(avg_s * n) / sum(n), 3)
        FROM
        (
            SELECT *, 1 - (greatest(priority, 1) - 1) / (SELECT max(greatest(priority, 1)) FROM per_op WHERE target_s IS NOT NULL AND priority IS NOT NULL) AS w
            FROM per_op
            WHERE target_s IS NOT NULL AND priority IS NOT NULL
        )
        HAVING sum(n) > 0
    )
SELECT
    scope, operation, target_s, target_from, priority, min_level, n, satisfied, tolerating, frustrated, apdex,
    multiIf(apdex IS NULL, '', apdex >= 0.94, 'Excellent', apdex >= 0.85, 'Good', apdex >= 0.70, 'Fair', apdex >= 0.50, 'Poor', 'Unacceptable') AS rating,
    if(apdex IS NULL OR min_level IS NULL, NULL, apdex >= min_level) AS meets_min_level,
    avg_s
FROM report_rows
ORDER BY scope != 'operation', scope, apdex, operation
