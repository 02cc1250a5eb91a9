-- APDEX of key operations in a window (docs/apdex.md §1, §2.1, §3): per operation, then two overall rows.
-- Two kinds of operation (column `source`): `export`, measured by the 1C performance-evaluation subsystem
-- (apdex_minute), and `tj`, server calls (tj_call_minute) whose first context line matches a rule of the config
-- (ingest/apdex/config.ts), passed as the bound arrays {op_*}: index i is operations[i]. A call belongs to the
-- first rule it matches. A config entry without a rule overrides its export operation's settings.
-- Satisfied d ≤ T, tolerating T < d ≤ 4T, frustrated d > 4T; apdex = (S + A/2) / N, rounded half-up to 3
-- decimals in integer arithmetic (a float round() would break ties to even). T of an export operation: the
-- config's, else key_operations', else the latest T the export carried (target_from says which); no T → apdex
-- NULL. Counts come from 10 ms buckets, so a T changed in the config or key_operations applies to past data at
-- once. The window is applied to whole minutes of the start time: a minute counts when it overlaps [from, to)
-- (a 9 s run still has its minute); pass from/to as Unix seconds (a date text is read in the server's time zone).
-- {bucket_s} below 60 (the HTML chart of a short run, queries/report-html/chart-bucket.ts) reads the raw rows
-- instead of the minute rollups, counted by the rollups' own rules, and applies the window to whole buckets of
-- that many seconds (a divisor of 60), so the buckets of a minute add up to exactly the minute's counts.
-- SSL shows "all frustrated" as 0.001 (its +0.001 display rule); this report shows the plain value 0.
-- Overall rows: `overall_count_weighted` sums S, A, N over the operations that have a T (the TJ-style
-- total); `overall_priority_weighted` is SSL's «Общая производительность системы»: Σ wᵢ·APDEXᵢ / Σ wᵢ with
-- wᵢ = 1 − (pᵢ − 1)/Pmax, independent of call counts, over the operations that have both T and a priority.
-- Its N, S, A, F columns are plain sums, shown for context only.
-- {timeline_s} above 0 gives every row per bucket `t` of that many seconds (Unix s of its start; 0 when not asked
-- for): the HTML report's timeline in one query, each bucket counted as a window of its own would be. Its
-- priority-weighted rows take the highest priority of the whole window, not of the bucket (the page draws none).
WITH
    export_rollup AS
    (
        SELECT
            toUInt64(if({timeline_s:UInt32} = 0, 0, intDiv(toUnixTimestamp(minute), {timeline_s:UInt32}) * {timeline_s:UInt32})) AS t,
            operation,
            sum(n) AS n,
            sumMapMerge(buckets_10ms) AS buckets,
            sum(duration_us_sum) AS duration_us_sum,
            nullIf(argMaxIfMerge(export_target_s), 0) AS export_target_s,
            nullIf(argMaxIfMerge(export_priority), 0) AS export_priority,
            nullIf(argMaxIfMerge(export_min_level), 0) AS export_min_level
        FROM apdex_minute
        WHERE {bucket_s:UInt32} >= 60 AND minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
        GROUP BY t, operation
        UNION ALL
        -- apdex_minute_mv's counting (queries/ddl/010_apdex.sql) over the measurements of whole buckets.
        SELECT
            toUInt64(if({timeline_s:UInt32} = 0, 0, intDiv(toUnixTimestamp(ts_start), {timeline_s:UInt32}) * {timeline_s:UInt32})) AS t,
            operation,
            toUInt64(count()) AS n,
            sumMap([toUInt32(intDiv(duration_us + 9999, 10000))], [toUInt64(1)]) AS buckets,
            toUInt64(sum(duration_us)) AS duration_us_sum,
            nullIf(argMaxIf(ifNull(target_s, 0), ts_start, toUInt8(isNotNull(target_s))), 0) AS export_target_s,
            nullIf(argMaxIf(ifNull(priority, toUInt32(0)), ts_start, toUInt8(isNotNull(priority))), 0) AS export_priority,
            nullIf(argMaxIf(ifNull(min_level, 0), ts_start, toUInt8(isNotNull(min_level))), 0) AS export_min_level
        FROM apdex_measurements
        WHERE {bucket_s:UInt32} < 60
          AND ts_start >= toDateTime(intDiv(toUnixTimestamp({from:DateTime64(3)}), {bucket_s:UInt32}) * {bucket_s:UInt32}, 'UTC')
          AND toDateTime(intDiv(toUnixTimestamp(ts_start), {bucket_s:UInt32}) * {bucket_s:UInt32}, 'UTC') < {to:DateTime64(3)}
        GROUP BY t, operation
    ),
    export_ops AS
    (
        SELECT
            r.t AS t,
            r.operation AS operation,
            'export' AS source,
            indexOf({op_names:Array(String)}, r.operation) AS i,
            -- Index 0 (not configured) reads NULL from the nullable arrays; an entry with a rule is a TJ operation.
            if({op_prefixes:Array(String)}[i] = '' AND {op_regexes:Array(String)}[i] = '', i, 0) AS cfg,
            multiIf({op_targets:Array(Nullable(Float64))}[cfg] IS NOT NULL, {op_targets:Array(Nullable(Float64))}[cfg],
                    s.target_s > 0, s.target_s, r.export_target_s) AS target_s,
            multiIf({op_targets:Array(Nullable(Float64))}[cfg] IS NOT NULL, 'config', s.target_s > 0, 'key_operations',
                    r.export_target_s IS NOT NULL, 'export', '') AS target_from,
            coalesce({op_priorities:Array(Nullable(UInt32))}[cfg], s.priority, r.export_priority) AS priority,
            coalesce({op_min_levels:Array(Nullable(Float64))}[cfg], s.min_level, r.export_min_level) AS min_level,
            r.n AS n,
            CAST(r.buckets AS Tuple(Array(UInt32), Array(UInt64))) AS buckets,
            r.duration_us_sum AS duration_us_sum
        FROM export_rollup AS r
        LEFT JOIN (SELECT name, target_s, priority, min_level FROM key_operations FINAL) AS s ON s.name = r.operation
    ),
    call_rollup AS
    (
        -- Read only when the config has a TJ rule (a call belongs to an operation only by one).
        SELECT
            toUInt64(if({timeline_s:UInt32} = 0, 0, intDiv(toUnixTimestamp(minute), {timeline_s:UInt32}) * {timeline_s:UInt32})) AS t,
            infobase, context, sum(n) AS n, sumMapMerge(buckets_10ms) AS buckets, sum(duration_us_sum) AS duration_us_sum
        FROM tj_call_minute
        WHERE {bucket_s:UInt32} >= 60 AND minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
          AND arrayExists((p, re) -> p != '' OR re != '', {op_prefixes:Array(String)}, {op_regexes:Array(String)})
        GROUP BY t, infobase, context
        UNION ALL
        -- tj_call_minute_mv's counting (queries/ddl/041_tj_calls.sql) over the calls of whole buckets.
        SELECT
            toUInt64(if({timeline_s:UInt32} = 0, 0, intDiv(toUnixTimestamp(ts_start), {timeline_s:UInt32}) * {timeline_s:UInt32})) AS t,
            infobase, context_first AS context, toUInt64(count()) AS n,
            sumMap([toUInt32(intDiv(duration_us + 9999, 10000))], [toUInt64(1)]) AS buckets, toUInt64(sum(duration_us)) AS duration_us_sum
        FROM tj_events
        WHERE {bucket_s:UInt32} < 60 AND event = 'CALL' AND context_first != ''
          AND ts_start >= toDateTime(intDiv(toUnixTimestamp({from:DateTime64(3)}), {bucket_s:UInt32}) * {bucket_s:UInt32}, 'UTC')
          AND toDateTime(intDiv(toUnixTimestamp(ts_start), {bucket_s:UInt32}) * {bucket_s:UInt32}, 'UTC') < {to:DateTime64(3)}
          AND arrayExists((p, re) -> p != '' OR re != '', {op_prefixes:Array(String)}, {op_regexes:Array(String)})
        GROUP BY t, infobase, context
    ),
    tj_ops AS
    (
        SELECT
            t, rule, sum(n) AS n, sumMap(buckets.1, buckets.2) AS buckets, sum(duration_us_sum) AS duration_us_sum
        FROM
        (
            SELECT
                t, n, buckets, duration_us_sum,
                arrayFirstIndex((p, re, ib) -> (p != '' OR re != '') AND startsWith(context, p) AND (re = '' OR match(context, re))
                                               AND (ib = '' OR infobase = ib),
                                {op_prefixes:Array(String)}, {op_regexes:Array(String)}, {op_infobases:Array(String)}) AS rule
            FROM call_rollup
        )
        WHERE rule > 0
        GROUP BY t, rule
    ),
    per_op AS
    (
        SELECT t, operation, source, target_s, target_from, priority, min_level, n, buckets, duration_us_sum FROM export_ops
        UNION ALL
        SELECT
            t, {op_names:Array(String)}[rule], 'tj', {op_targets:Array(Nullable(Float64))}[rule], 'config',
            {op_priorities:Array(Nullable(UInt32))}[rule], {op_min_levels:Array(Nullable(Float64))}[rule],
            n, CAST(buckets AS Tuple(Array(UInt32), Array(UInt64))), duration_us_sum
        FROM tj_ops
    ),
    counted AS
    (
        SELECT
            t, operation, source, target_s, target_from, priority, min_level, n,
            toUInt64(round(assumeNotNull(target_s) * 100)) AS t_10ms,
            if(target_s IS NULL, NULL, arraySum(arrayMap((b, c) -> if(b <= t_10ms, c, 0), buckets.1, buckets.2))) AS satisfied,
            if(target_s IS NULL, NULL, arraySum(arrayMap((b, c) -> if(b > t_10ms AND b <= 4 * t_10ms, c, 0), buckets.1, buckets.2))) AS tolerating,
            duration_us_sum / n / 1e6 AS avg_s
        FROM per_op
    ),
    overall AS
    (
        -- Both overall rows from one pass over `counted` (each read of a CTE computes it again). The priority weight
        -- wᵢ = 1 − (pᵢ − 1)/Pmax is linear, so Σ wᵢ·APDEXᵢ = Σ APDEXᵢ − Σ (pᵢ − 1)·APDEXᵢ / Pmax and Σ wᵢ likewise.
        SELECT
            t,
            sumIf(n, c) AS cn, sumIf(satisfied, c) AS cs, sumIf(tolerating, c) AS ca, sumIf(avg_s * n, c) AS c_avg,
            sumIf(n, pw) AS pn, sumIf(satisfied, pw) AS ps, sumIf(tolerating, pw) AS pa, sumIf(avg_s * n, pw) AS p_avg,
            maxIf(greatest(priority, 1), pw) AS pmax, countIf(pw) AS w_n, sumIf(greatest(priority, 1) - 1, pw) AS w_p,
            sumIf((2 * satisfied + tolerating) / (2 * n), pw) AS r_sum, sumIf((greatest(priority, 1) - 1) * (2 * satisfied + tolerating) / (2 * n), pw) AS rp_sum
        FROM (SELECT *, target_s IS NOT NULL AS c, target_s IS NOT NULL AND priority IS NOT NULL AS pw FROM counted)
        GROUP BY t
    ),
    report_rows AS
    (
        SELECT
            t, 'operation' AS scope, operation, source, target_from, target_s, priority, min_level, n, satisfied, tolerating,
            n - satisfied - tolerating AS frustrated,
            if(target_s IS NULL, NULL, intDiv((2 * satisfied + tolerating) * 1000 + n, 2 * n) / 1000) AS apdex,
            round(avg_s, 3) AS avg_s
        FROM counted
        UNION ALL
        SELECT t, r.1, r.2, '', '', NULL, NULL, NULL, r.3, r.4, r.5, r.3 - r.4 - r.5, r.6, r.7
        FROM overall
        ARRAY JOIN arrayFilter(x -> x.3 > 0, [
            ('overall_count_weighted', '(all operations with a T, count-weighted)', cn, cs, ca,
             if(cn = 0, 0, intDiv((2 * cs + ca) * 1000 + cn, 2 * cn) / 1000), if(cn = 0, 0, round(c_avg / cn, 3))),
            ('overall_priority_weighted', '(Общая производительность системы, 1C priority-weighted)', pn, ps, pa,
             if(pn = 0, 0, floor((r_sum - rp_sum / pmax) / (w_n - w_p / pmax) * 1000 + 0.5) / 1000), if(pn = 0, 0, round(p_avg / pn, 3)))]) AS r
    )
SELECT
    t, scope, operation, source, target_s, target_from, priority, min_level, n, satisfied, tolerating, frustrated, apdex,
    multiIf(apdex IS NULL, '', apdex >= 0.94, 'Excellent', apdex >= 0.85, 'Good', apdex >= 0.70, 'Fair', apdex >= 0.50, 'Poor', 'Unacceptable') AS rating,
    if(apdex IS NULL OR min_level IS NULL, NULL, apdex >= min_level) AS meets_min_level,
    avg_s
FROM report_rows
ORDER BY t, scope != 'operation', scope, apdex, operation, source
