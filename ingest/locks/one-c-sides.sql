-- The lock resolver's 1C sides of PostgreSQL episodes (docs/write-path.md §11, docs/tj-format.md §5.5), for a batch
-- given as arrays (an episode = {ids}[i]: its waiting backend, its first holder (0: none) and the instant the wait
-- began), from tj_backend_events (migration 050): the waiter's first TJ event with its dbpid at or after the instant
-- (at most an hour after), the holder's last one at or before it (at most an hour before), as
-- test/reference-sql/pg-lock-waits.sql and pg-blocked-episodes.sql find them over a window. n_facts: both backends'
-- events within an hour of the instant, what the version counts. One pass over the facts: each side's rows gathered
-- per episode, the lookups taken from them (the first form of this query read the facts three times and joined every
-- fact of the batch with every episode of it: 20-50 s a batch of 500 on the 10M bench store).
WITH
    episodes AS
    (
        SELECT {ids:Array(String)}[i] AS id, {waiters:Array(UInt32)}[i] AS waiter, {holders:Array(UInt32)}[i] AS holder,
               {ats:Array(DateTime64(6))}[i] AS at
        FROM (SELECT arrayJoin(arrayEnumerate({ids:Array(String)})) AS i)
    ),
    probes AS
    (
        SELECT id, at, side.1 AS dbpid, side.2 AS is_waiter
        FROM episodes
        ARRAY JOIN [(waiter, toUInt8(1)), (holder, toUInt8(0))] AS side
        WHERE side.1 != 0
    ),
    facts AS
    (
        SELECT dbpid, ts, infobase, user, connect_id, context_first
        FROM tj_backend_events
        WHERE dbpid IN (SELECT arrayJoin(arrayConcat({waiters:Array(UInt32)}, {holders:Array(UInt32)})))
          AND ts >= arrayMin({ats:Array(DateTime64(6))}) - INTERVAL 1 HOUR AND ts <= arrayMax({ats:Array(DateTime64(6))}) + INTERVAL 1 HOUR
    ),
    gathered AS
    (
        SELECT
            p.id AS id, any(p.is_waiter) AS is_waiter, toUInt64(count()) AS n,
            argMinIf((f.ts, f.infobase, f.user, f.connect_id, f.context_first), f.ts, f.ts >= p.at) AS after,
            countIf(f.ts >= p.at) > 0 AS after_found,
            argMaxIf((f.ts, f.infobase, f.user, f.connect_id, f.context_first), f.ts, f.ts <= p.at) AS before,
            countIf(f.ts <= p.at) > 0 AS before_found
        FROM probes AS p
        INNER JOIN facts AS f ON p.dbpid = f.dbpid
        WHERE f.ts >= p.at - INTERVAL 1 HOUR AND f.ts <= p.at + INTERVAL 1 HOUR
        GROUP BY p.id, p.is_waiter
    )
SELECT
    id,
    toUInt8(maxIf(after_found, is_waiter = 1)) AS waiter_found,
    anyIf(after.2, is_waiter = 1) AS waiter_infobase, anyIf(after.3, is_waiter = 1) AS waiter_user,
    anyIf(after.4, is_waiter = 1) AS waiter_connect_id, anyIf(after.5, is_waiter = 1) AS waiter_context,
    toUInt8(maxIf(before_found, is_waiter = 0)) AS holder_found,
    anyIf(before.3, is_waiter = 0) AS holder_user, anyIf(before.4, is_waiter = 0) AS holder_connect_id,
    anyIf(before.5, is_waiter = 0) AS holder_context,
    sum(n) AS n_facts
FROM gathered
GROUP BY id
