-- Machine CPU busy % per host and minute from atop (atop_minute, queries/ddl/030_atop.sql): the mean and the
-- peak of the samples in the minute, busy meaning neither idle nor waiting for I/O, as atop shows it. Minutes
-- are taken as apdex.sql takes them: every minute overlapping [from, to). {bucket_s} below 60 (the HTML chart of
-- a short run, queries/report-html/chart-bucket.ts) gives buckets of that many seconds (a divisor of 60) from the
-- samples (atop_system) of the same minutes, averaged as atop_minute_mv does: over the samples that have a CPU figure.
SELECT t, host, cpu_busy_pct, cpu_busy_pct_max
FROM
(
    SELECT
        toUInt32(toUnixTimestamp(m.minute)) AS t,
        m.host AS host,
        round(sum(m.cpu_busy_pct_sum) / sum(m.cpu_samples), 1) AS cpu_busy_pct,
        round(max(m.cpu_busy_pct_max), 1) AS cpu_busy_pct_max
    FROM atop_minute AS m
    WHERE {bucket_s:UInt32} >= 60 AND m.minute >= toStartOfMinute({from:DateTime64(3)}) AND m.minute < {to:DateTime64(3)}
    GROUP BY m.host, m.minute
    HAVING sum(m.cpu_samples) > 0
    UNION ALL
    SELECT
        toUInt32(intDiv(toUnixTimestamp(s.ts), {bucket_s:UInt32}) * {bucket_s:UInt32}) AS t,
        s.host AS host,
        round(sum(ifNull(s.cpu_busy_pct, 0)) / countIf(isNotNull(s.cpu_busy_pct)), 1) AS cpu_busy_pct,
        round(max(ifNull(s.cpu_busy_pct, 0)), 1) AS cpu_busy_pct_max
    FROM atop_system AS s
    WHERE {bucket_s:UInt32} < 60 AND toStartOfMinute(s.ts) >= toStartOfMinute({from:DateTime64(3)}) AND toStartOfMinute(s.ts) < {to:DateTime64(3)}
    GROUP BY host, t
    HAVING countIf(isNotNull(s.cpu_busy_pct)) > 0
)
ORDER BY host, t
