-- The lock resolver's first look at a batch of pg_blocked_sides (docs/write-path.md §11): each episode's first sample
-- (pg_blocked_minute) and its first holder there, and the holder's state, query and application in that same sample
-- (pg_activity, one point per episode), as test/reference-sql/pg-blocked-episodes.sql finds them over a window.
-- The 1C sides at `at` come next, from one-c-sides.sql.
WITH
    e AS
    (
        SELECT host, server, pid, query_start, min(first_seen) AS first_seen, argMinMerge(first_blocking)[1] AS first_holder
        FROM pg_blocked_minute
        WHERE query_start >= {lo:DateTime64(3)} AND query_start <= {hi:DateTime64(3)}
          AND has({ids:Array(String)}, concat(host, '|', server, '|', toString(pid), '|', toString(query_start)))
        GROUP BY host, server, pid, query_start
    ),
    h AS
    (
        SELECT host, server, ts, pid, state, query, application, toUInt8(1) AS found
        FROM pg_activity
        WHERE host IN (SELECT host FROM e) AND ts >= (SELECT min(first_seen) FROM e) AND ts <= (SELECT max(first_seen) FROM e)
          AND pid IN (SELECT first_holder FROM e)
    )
SELECT
    e.host AS host, e.server AS server, e.pid AS pid, e.query_start AS query_start, toString(e.first_seen) AS first_seen,
    toDateTime64(e.first_seen, 6) AS at, e.first_holder AS holder_pid, h.found AS holder_sampled, h.state AS holder_state,
    h.query AS holder_query, h.application AS holder_application
FROM e
LEFT JOIN h ON h.host = e.host AND h.server = e.server AND h.ts = e.first_seen AND h.pid = e.first_holder
