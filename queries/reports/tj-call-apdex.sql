-- Provisional APDEX of server calls: CALL events grouped by the first line of their context (the form
-- or command a user ran), with one target time T for all. APDEX = (S + T/2) / N, where S = calls within
-- T, T(olerating) = calls within 4T (apdex.md). Key-operation APDEX with per-operation targets comes
-- from the performance-evaluation export (issue "APDEX"); this is what the journal alone can tell.
SELECT
    context_first AS operation,
    count() AS n,
    countIf(duration_us <= {target_us:UInt64}) AS satisfied,
    countIf(duration_us > {target_us:UInt64} AND duration_us <= 4 * {target_us:UInt64}) AS tolerating,
    countIf(duration_us > 4 * {target_us:UInt64}) AS frustrated,
    round((satisfied + tolerating / 2) / n, 3) AS apdex,
    round(avg(duration_us) / 1000, 1) AS avg_ms
FROM tj_events
WHERE event = 'CALL' AND context_first != '' AND ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
GROUP BY operation
ORDER BY apdex ASC, n DESC
LIMIT {limit:UInt32}
