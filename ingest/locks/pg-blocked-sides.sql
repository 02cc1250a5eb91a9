-- The lock resolver's lookups for a batch of pg_blocked_sides (docs/write-path.md §11): an episode's first sample
-- (pg_blocked_minute) and its first holder there, the holder's state, query and application in that same sample
-- (pg_activity, one point per episode), and the 1C sides by dbpid as pg-episode-sides.sql finds them — the waiter's
-- first TJ event at or after the first sample, the holder's last one at or before it, each within an hour, as
-- test/reference-sql/pg-blocked-episodes.sql does over a window. n_facts: what the version counts.
WITH
    e AS
    (
        SELECT host, server, pid, query_start, min(first_seen) AS first_seen, argMinMerge(first_blocking)[1] AS first_holder,
               toDateTime64(first_seen, 6) AS at
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
    ),
    facts AS
    (
        SELECT dbpid, ts, infobase, user, connect_id, context_first
        FROM tj_backend_events
        WHERE dbpid IN (SELECT arrayJoin([pid, first_holder]) FROM e)
          AND ts >= (SELECT min(at) FROM e) - INTERVAL 1 HOUR AND ts <= (SELECT max(at) FROM e) + INTERVAL 1 HOUR
    ),
    counted AS
    (
        SELECT e.host AS host, e.server AS server, e.pid AS pid, e.query_start AS query_start, toUInt64(count()) AS n_facts
        FROM e INNER JOIN facts AS f ON f.dbpid IN (e.pid, e.first_holder)
        WHERE f.ts >= e.at - INTERVAL 1 HOUR AND f.ts <= e.at + INTERVAL 1 HOUR
        GROUP BY host, server, pid, query_start
    ),
    sample AS
    (
        SELECT e.*, h.found AS holder_sampled, h.state AS holder_state, h.query AS holder_query, h.application AS holder_application
        FROM e LEFT JOIN h ON h.host = e.host AND h.server = e.server AND h.ts = e.first_seen AND h.pid = e.first_holder
    ),
    sides AS
    (
        SELECT
            s.host AS host, s.server AS server, s.pid AS pid, s.query_start AS query_start, toString(s.first_seen) AS first_seen,
            s.first_holder AS holder_pid, s.holder_sampled AS holder_sampled, s.holder_state AS holder_state, s.holder_query AS holder_query,
            s.holder_application AS holder_application,
            toUInt8(waiter.found = 1 AND waiter.ts <= s.at + INTERVAL 1 HOUR) AS waiter_found,
            waiter.infobase AS waiter_infobase, waiter.user AS waiter_user, waiter.connect_id AS waiter_connect_id, waiter.context_first AS waiter_context,
            toUInt8(holder.found = 1 AND holder.ts >= s.at - INTERVAL 1 HOUR) AS holder_found,
            holder.user AS holder_user, holder.connect_id AS holder_connect_id, holder.context_first AS holder_context
        FROM sample AS s
        ASOF LEFT JOIN (SELECT *, toUInt8(1) AS found FROM facts) AS waiter ON s.pid = waiter.dbpid AND s.at <= waiter.ts
        ASOF LEFT JOIN (SELECT *, toUInt8(1) AS found FROM facts) AS holder ON s.first_holder = holder.dbpid AND s.at >= holder.ts
    )
SELECT s.*, n.n_facts AS n_facts
FROM sides AS s
LEFT JOIN counted AS n ON s.host = n.host AND s.server = n.server AND s.pid = n.pid AND s.query_start = n.query_start
