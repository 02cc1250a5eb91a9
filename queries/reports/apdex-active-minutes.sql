-- Buckets of a window that hold APDEX data (export measurements or TJ server calls, the two sources of apdex.sql),
-- for the HTML report's timeline: it runs apdex.sql once per such bucket, so each point is `report apdex` over that
-- one bucket by construction (same T rules, config and rounding). {bucket_s} is 60 (minutes, from the rollups) or,
-- for a short window, a divisor of 60 (from the raw rows, queries/report-html/chart-bucket.ts). Either way the
-- buckets lie in the minutes apdex.sql counts, those overlapping [from, to), so the points add up to its totals.
-- A bucket of TJ calls that match no configured operation just yields no point.
SELECT DISTINCT t
FROM
(
    SELECT toUInt64(toUnixTimestamp(minute)) AS t FROM apdex_minute
    WHERE {bucket_s:UInt32} >= 60 AND minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
    UNION ALL
    SELECT toUInt64(toUnixTimestamp(minute)) AS t FROM tj_call_minute
    WHERE {bucket_s:UInt32} >= 60 AND minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
    UNION ALL
    SELECT toUInt64(intDiv(toUnixTimestamp(ts_start), {bucket_s:UInt32}) * {bucket_s:UInt32}) AS t FROM apdex_measurements
    WHERE {bucket_s:UInt32} < 60 AND toStartOfMinute(ts_start) >= toStartOfMinute({from:DateTime64(3)}) AND toStartOfMinute(ts_start) < {to:DateTime64(3)}
    UNION ALL
    SELECT toUInt64(intDiv(toUnixTimestamp(ts_start), {bucket_s:UInt32}) * {bucket_s:UInt32}) AS t FROM tj_events
    WHERE {bucket_s:UInt32} < 60 AND event = 'CALL' AND context_first != ''
      AND toStartOfMinute(ts_start) >= toStartOfMinute({from:DateTime64(3)}) AND toStartOfMinute(ts_start) < {to:DateTime64(3)}
)
ORDER BY t
LIMIT {limit:UInt32}
