-- Machine CPU busy % per host and minute from atop (atop_minute, queries/ddl/030_atop.sql): the mean and the
-- peak of the samples in the minute, busy meaning neither idle nor waiting for I/O, as atop shows it. Minutes
-- are taken as apdex.sql takes them: every minute overlapping [from, to).
SELECT
    toUnixTimestamp(m.minute) AS t,
    m.host AS host,
    round(sum(m.cpu_busy_pct_sum) / sum(m.cpu_samples), 1) AS cpu_busy_pct,
    round(max(m.cpu_busy_pct_max), 1) AS cpu_busy_pct_max
FROM atop_minute AS m
WHERE m.minute >= toStartOfMinute({from:DateTime64(3)}) AND m.minute < {to:DateTime64(3)}
GROUP BY m.host, m.minute
HAVING sum(m.cpu_samples) > 0
ORDER BY host, t
