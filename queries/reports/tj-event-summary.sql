-- Events per type in a window: how many, how long (ms), and from how many processes.
SELECT
    event,
    count() AS n,
    round(avg(duration_us) / 1000, 1) AS avg_ms,
    round(quantile(0.95)(duration_us) / 1000, 1) AS p95_ms,
    round(max(duration_us) / 1000, 1) AS max_ms,
    uniqExact(host, process, pid) AS processes
FROM tj_events
WHERE ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
GROUP BY event
ORDER BY n DESC
