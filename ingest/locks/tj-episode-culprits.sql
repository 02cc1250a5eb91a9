-- The lock resolver's lookups of culprit connections (docs/write-path.md §11): docs/tj-format.md §5.4 step 3 as
-- test/reference-sql/tj-lock-culprits.sql works it out, for the pairs of tj-episode-pairs.sql given as arrays (a pair
-- = {ids}[i]: its infobase, culprit connection, ref_ts, victim event time and requested lock spaces), over the fact
-- table of migration 050 and with every lookup bounded by the pair's own instants (§5.5), so that an answer does not
-- depend on its batch. Each lookup is an ASOF join (one fact per pair), not a join of every pair with every fact of
-- its connection: on a connection with thousands of events an hour that join was most of an ingest's time.
--   tx        the culprit's last BeginTransaction at or before ref_ts (at most an hour before) and the first
--             Commit/Rollback after it (at most an hour after the victim's event);
--   lower_ts  where the culprit's TLOCKs are looked for from (tj-episode-tlocks.sql): the transaction start, else its
--             last transaction end, else an hour back;
--   last      the culprit's last event with a context at most an hour before the victim's event;
--   n_facts   the culprit connection's fact rows in [ref_ts − 1 h, ts + 1 h]: what the version counts, as the
--             difference of two running counts of the connection's facts.
-- A pair with no fact in its range gets no row. The facts are read for {connections} (the pairs' distinct infobase and
-- culprit) in [{from} − 1 h, {to} + 1 h] ({from}: the earliest ref_ts, {to}: the latest victim time), given apart
-- from the pairs: each use of a CTE is a copy of it, and the pairs' arrays copied into every use of the facts made
-- the planning of a 4,000-pair batch cost more than its lookups. The running counts come from each connection's
-- sorted times (an array per connection), not from a window function over the facts, which took two thirds of the
-- query (bench/RESULTS.md, "the engine's CPU in ingest --tj").
WITH
    pairs AS
    (
        SELECT
            {ids:Array(String)}[i] AS id, {infobases:Array(String)}[i] AS infobase, {culprits:Array(UInt64)}[i] AS culprit,
            {refs:Array(DateTime64(6))}[i] AS ref_ts, {times:Array(DateTime64(6))}[i] AS ts, {regions:Array(Array(String))}[i] AS req_regions
        FROM (SELECT arrayJoin(arrayEnumerate({ids:Array(String)})) AS i)
    ),
    facts AS
    (
        -- The pairs' culprit connections only: (infobase, connect_id) is the table's key prefix, so this reads their ranges.
        SELECT infobase, connect_id, ts, event, func, user, context_first, CAST(regions AS Array(String)) AS regions, locks, escalating
        FROM tj_connection_events
        WHERE (infobase, connect_id) IN {connections:Array(Tuple(String, UInt64))}
          AND ts >= {from:DateTime64(6)} - INTERVAL 1 HOUR AND ts <= {to:DateTime64(6)} + INTERVAL 1 HOUR
    ),
    running AS
    (
        -- Facts counted up to each instant of a connection: its times sorted, and at the last fact of each instant
        -- (the next time differs, or there is none) the count up to there (instants shared by several facts once).
        SELECT infobase, connect_id, instant.1 AS ts, instant.2 AS upto
        FROM
        (
            SELECT infobase, connect_id, arraySort(groupArray(ts)) AS times, arrayPushBack(arrayPopFront(times), toDateTime64(0, 6, 'UTC')) AS next
            FROM facts
            GROUP BY infobase, connect_id
        )
        ARRAY JOIN arrayFilter(x -> x.3 != x.1 OR x.2 = length(times), arrayZip(times, arrayEnumerate(times), next)) AS instant
    ),
    looked AS
    (
        SELECT
            p.id AS id, p.infobase AS infobase, p.culprit AS culprit, p.ref_ts AS ref_ts, p.ts AS ts, p.req_regions AS req_regions,
            hi.upto - lo.upto AS n_facts,
            l.found = 1 AND l.ts >= p.ts - INTERVAL 1 HOUR AS last_found, l.user AS last_user, l.context_first AS last_context,
            b.found = 1 AND b.ts >= p.ref_ts - INTERVAL 1 HOUR AS begin_found, b.ts AS b_ts, b.user AS b_user, b.context_first AS b_context,
            pe.found = 1 AND pe.ts >= p.ref_ts - INTERVAL 1 HOUR AS prev_end_found, pe.ts AS pe_ts
        FROM pairs AS p
        ASOF LEFT JOIN running AS hi ON p.infobase = hi.infobase AND p.culprit = hi.connect_id AND p.ts + INTERVAL 1 HOUR >= hi.ts
        ASOF LEFT JOIN running AS lo ON p.infobase = lo.infobase AND p.culprit = lo.connect_id AND p.ref_ts - INTERVAL 1 HOUR > lo.ts
        ASOF LEFT JOIN (SELECT infobase, connect_id, ts, user, context_first, toUInt8(1) AS found FROM facts WHERE context_first != '') AS l
            ON p.infobase = l.infobase AND p.culprit = l.connect_id AND p.ts >= l.ts
        ASOF LEFT JOIN (SELECT infobase, connect_id, ts, user, context_first, toUInt8(1) AS found FROM facts WHERE func = 'BeginTransaction') AS b
            ON p.infobase = b.infobase AND p.culprit = b.connect_id AND p.ref_ts >= b.ts
        ASOF LEFT JOIN (SELECT infobase, connect_id, ts, toUInt8(1) AS found FROM facts WHERE func IN ('CommitTransaction', 'RollbackTransaction')) AS pe
            ON p.infobase = pe.infobase AND p.culprit = pe.connect_id AND p.ref_ts >= pe.ts
    ),
    ended AS
    (
        -- The first end at or after the transaction's start (or, with no start found, after the range's start).
        SELECT
            k.*, e.found = 1 AND e.ts <= k.ts + INTERVAL 1 HOUR AS end_found, e.ts AS e_ts, e.func AS e_func,
            begin_found AND (NOT end_found OR e_ts >= k.ref_ts) AS tx_found,
            multiIf(tx_found, k.b_ts, prev_end_found, k.pe_ts, k.ref_ts - INTERVAL 1 HOUR) AS lower_ts
        FROM (SELECT *, if(begin_found, b_ts, ref_ts - INTERVAL 1 HOUR) AS from_ts FROM looked WHERE n_facts > 0) AS k
        ASOF LEFT JOIN (SELECT infobase, connect_id, ts, func, toUInt8(1) AS found FROM facts WHERE func IN ('CommitTransaction', 'RollbackTransaction')) AS e
            ON k.infobase = e.infobase AND k.culprit = e.connect_id AND k.from_ts <= e.ts
    )
SELECT
    k.id AS id, if(last_found, last_user, '') AS culprit_user, if(last_found, last_context, '') AS culprit_context,
    tx_found, if(begin_found, b_ts, toDateTime64(0, 6, 'UTC')) AS tx_start, if(begin_found, b_user, '') AS tx_user,
    if(begin_found, b_context, '') AS tx_context,
    tx_found AND end_found AS tx_end_found, if(end_found, e_ts, toDateTime64(0, 6, 'UTC')) AS tx_end, if(end_found, e_func, '') AS tx_end_func,
    toString(lower_ts) AS lower_ts, toUInt64(n_facts) AS n_facts
FROM ended AS k
