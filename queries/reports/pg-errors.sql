-- PostgreSQL errors of a window (`report errors`, issue #25 item 3): ERROR, FATAL and PANIC entries of the server log
-- grouped by SQLSTATE (empty unless the log has it: `%e` in log_line_prefix, csvlog, jsonlog; docs/pg-format.md §3)
-- and message pattern: the message with every "quoted" name and every number replaced, so `relation "a" does not
-- exist` and `relation "b" does not exist` are one row. With count, first and last time, databases, users and one
-- whole message as an example.
SELECT
    severity, sqlstate, pattern,
    toUInt64(count()) AS count,
    toString(min(ts)) AS first_ts,
    toString(max(ts)) AS last_ts,
    any(message) AS example,
    arraySort(groupUniqArrayIf(database, database != '')) AS databases,
    arraySort(groupUniqArrayIf(user, user != '')) AS users
FROM
(
    SELECT severity, sqlstate, message, database, user, ts,
        replaceRegexpAll(replaceRegexpAll(message, '"[^"]*"', '"…"'), '\\b\\d+(\\.\\d+)?\\b', 'N') AS pattern
    FROM pg_log
    WHERE severity IN ('ERROR', 'FATAL', 'PANIC') AND ts >= {from:DateTime64(3)} AND ts < {to:DateTime64(3)}
)
GROUP BY severity, sqlstate, pattern
ORDER BY count DESC, severity, sqlstate, pattern
LIMIT {limit:UInt32}
