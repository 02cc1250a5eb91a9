-- The lock resolver's last lookup of culprit connections (docs/write-path.md §11), after tj-episode-culprits.sql:
-- for each pair ({ids}[i]: its infobase, culprit connection, lower_ts from that query, ref_ts and requested lock
-- spaces) the culprit's TLOCKs in [lower_ts, ref_ts] on the victim's lock spaces (any, when it names none), oldest
-- first: (ts, regions, locks, context, escalating), as test/reference-sql/tj-lock-culprits.sql finds them. A query of
-- its own, so that the other's lookups are not evaluated twice (ClickHouse evaluates a CTE at each use).
-- The TLOCKs of the batch's connections ({connections}, in [{from}, {to}]: the earliest lower_ts, the latest ref_ts)
-- are numbered per connection in time order; two ASOF lookups give each pair the numbers of its first and last TLOCK
-- in range, and only those TLOCKs are joined to it. Joining each pair with every TLOCK of its connection and then
-- keeping those in range made rows for all of them, texts included: 3.3M rows for a 3,800-pair batch of a 200 MB
-- journal, most of the resolver's time (bench/RESULTS.md, "the engine's CPU in ingest --tj").
WITH
    pairs AS
    (
        SELECT
            {ids:Array(String)}[i] AS id, {infobases:Array(String)}[i] AS infobase, {culprits:Array(UInt64)}[i] AS culprit,
            {lowers:Array(DateTime64(6))}[i] AS lower_ts, {refs:Array(DateTime64(6))}[i] AS ref_ts, {regions:Array(Array(String))}[i] AS req_regions
        FROM (SELECT arrayJoin(arrayEnumerate({ids:Array(String)})) AS i)
    ),
    numbered AS
    (
        -- Each connection's TLOCK times, sorted: a TLOCK's number is its place there.
        SELECT infobase, connect_id, arraySort(groupArray(ts)) AS times
        FROM tj_connection_events
        WHERE (infobase, connect_id) IN {connections:Array(Tuple(String, UInt64))} AND event = 'TLOCK'
          AND ts >= {from:DateTime64(6)} AND ts <= {to:DateTime64(6)}
        GROUP BY infobase, connect_id
    ),
    instants AS
    (
        -- Each instant of a connection's TLOCKs with the numbers of its first and last TLOCK (several may share it).
        SELECT infobase, connect_id, at.1 AS ts, min(at.2) AS first_n, max(at.2) AS last_n
        FROM numbered
        ARRAY JOIN arrayZip(times, arrayEnumerate(times)) AS at
        GROUP BY infobase, connect_id, ts
    ),
    spans AS
    (
        -- A pair's TLOCKs are those numbered from the first at or after lower_ts to the last at or before ref_ts.
        SELECT p.id AS id, p.infobase AS infobase, p.culprit AS culprit, p.req_regions AS req_regions, lo.first_n AS from_n, hi.last_n AS to_n
        FROM pairs AS p
        ASOF LEFT JOIN instants AS lo ON p.infobase = lo.infobase AND p.culprit = lo.connect_id AND p.lower_ts <= lo.ts
        ASOF LEFT JOIN instants AS hi ON p.infobase = hi.infobase AND p.culprit = hi.connect_id AND p.ref_ts >= hi.ts
    ),
    tlocks AS
    (
        -- The same TLOCKs with their texts, in the same order (equal times keep their numbers' range).
        SELECT infobase, connect_id, tlock.1 AS ts, tlock.2 AS regions, tlock.3 AS locks, tlock.4 AS context_first, tlock.5 AS escalating, n
        FROM
        (
            SELECT infobase, connect_id, arraySort(x -> x.1, groupArray((ts, CAST(regions AS Array(String)), locks, context_first, escalating))) AS list
            FROM tj_connection_events
            WHERE (infobase, connect_id) IN {connections:Array(Tuple(String, UInt64))} AND event = 'TLOCK'
              AND ts >= {from:DateTime64(6)} AND ts <= {to:DateTime64(6)}
            GROUP BY infobase, connect_id
        )
        ARRAY JOIN list AS tlock, arrayEnumerate(list) AS n
    )
SELECT
    s.id AS id,
    arraySort(x -> x.1, groupArray((f.ts, f.regions, f.locks, f.context_first, if(f.escalating = 1, 'true', '')))) AS culprit_tlocks
FROM (SELECT id, infobase, culprit, req_regions, arrayJoin(range(from_n, to_n + 1)) AS n FROM spans WHERE from_n > 0 AND to_n >= from_n) AS s
INNER JOIN tlocks AS f ON s.infobase = f.infobase AND s.culprit = f.connect_id AND s.n = f.n
WHERE empty(s.req_regions) OR hasAny(f.regions, s.req_regions)
GROUP BY id
