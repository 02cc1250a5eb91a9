-- Provisional APDEX of server calls: CALL events grouped by the first line of their context (the form
-- or command a user ran), with one target time T for all. APDEX = (S + A/2) / N, where S = calls within
-- T, A = calls within 4T (docs/apdex.md §1). For a first look at which contexts to name as key operations: named
-- operations with their own T, priority and minimum level come from the config's `apdex.operations` rules and
-- are reported by apdex.sql beside the export's (`report apdex --config FILE`).
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
