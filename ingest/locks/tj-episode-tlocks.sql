-- The lock resolver's last lookup of culprit connections (docs/write-path.md §11), after tj-episode-culprits.sql:
-- for each pair ({ids}[i]: its infobase, culprit connection, lower_ts from that query, ref_ts and requested lock
-- spaces) the culprit's TLOCKs in [lower_ts, ref_ts] on the victim's lock spaces (any, when it names none), oldest
-- first: (ts, regions, locks, context, escalating), as test/reference-sql/tj-lock-culprits.sql finds them. A query of
-- its own, so that the other's lookups are not evaluated twice (ClickHouse evaluates a CTE at each use).
WITH
    pairs AS
    (
        SELECT
            {ids:Array(String)}[i] AS id, {infobases:Array(String)}[i] AS infobase, {culprits:Array(UInt64)}[i] AS culprit,
            {lowers:Array(DateTime64(6))}[i] AS lower_ts, {refs:Array(DateTime64(6))}[i] AS ref_ts, {regions:Array(Array(String))}[i] AS req_regions
        FROM (SELECT arrayJoin(arrayEnumerate({ids:Array(String)})) AS i)
    )
SELECT
    p.id AS id,
    arraySort(x -> x.1, groupArray((f.ts, CAST(f.regions AS Array(String)), f.locks, f.context_first, if(f.escalating = 1, 'true', '')))) AS culprit_tlocks
FROM pairs AS p
INNER JOIN
(
    SELECT infobase, connect_id, ts, regions, locks, context_first, escalating
    FROM tj_connection_events
    WHERE (infobase, connect_id) IN (SELECT DISTINCT infobase, culprit FROM pairs) AND event = 'TLOCK'
      AND ts >= arrayMin({lowers:Array(DateTime64(6))}) AND ts <= arrayMax({refs:Array(DateTime64(6))})
) AS f ON p.infobase = f.infobase AND p.culprit = f.connect_id
WHERE f.ts >= p.lower_ts AND f.ts <= p.ref_ts AND (empty(p.req_regions) OR hasAny(CAST(f.regions AS Array(String)), p.req_regions))
GROUP BY id
