-- The lock resolver's lookups of culprit connections (docs/write-path.md §11): docs/tj-format.md §5.4 step 3 as
-- test/reference-sql/tj-lock-culprits.sql works it out, for the pairs of tj-episode-pairs.sql given as arrays (a pair
-- = {ids}[i]: its infobase, culprit connection, ref_ts, victim event time and requested lock spaces), over the fact
-- table of migration 050 and with every lookup bounded by the pair's own instants (§5.5), so that an answer does not
-- depend on its batch. One pass over the facts: each pair's rows within [ref_ts − 1 h, ts + 1 h], gathered per pair,
-- the lookups taken from those arrays (so the facts are read once, not once per lookup):
--   tx        the culprit's last BeginTransaction at or before ref_ts (at most an hour before) and the first
--             Commit/Rollback after it (at most an hour after the victim's event);
--   tlocks    the culprit's TLOCKs from the transaction start (else its last transaction end, else an hour back) to
--             ref_ts on the victim's lock spaces, oldest first: (ts, regions, locks, context, escalating);
--   last      the culprit's last event with a context at most an hour before the victim's event;
--   n_facts   the culprit connection's fact rows in [ref_ts − 1 h, ts + 1 h]: what the version counts.
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
        WHERE (infobase, connect_id) IN (SELECT DISTINCT infobase, culprit FROM pairs)
          AND ts >= arrayMin({refs:Array(DateTime64(6))}) - INTERVAL 1 HOUR AND ts <= arrayMax({times:Array(DateTime64(6))}) + INTERVAL 1 HOUR
    ),
    gathered AS
    (
        SELECT
            p.id AS id, any(p.ref_ts) AS ref_ts, any(p.ts) AS ts, toUInt64(count()) AS n_facts,
            arraySort(x -> x.1, groupArrayIf((f.ts, f.func, f.user, f.context_first), f.func != '')) AS txs,
            argMaxIf((f.ts, f.user, f.context_first), f.ts, f.context_first != '' AND f.ts <= p.ts AND f.ts >= p.ts - INTERVAL 1 HOUR) AS last,
            arraySort(x -> x.1, groupArrayIf((f.ts, f.regions, f.locks, f.context_first, if(f.escalating = 1, 'true', '')),
                f.event = 'TLOCK' AND f.ts <= p.ref_ts AND (empty(p.req_regions) OR hasAny(f.regions, p.req_regions)))) AS tlocks
        FROM pairs AS p
        INNER JOIN facts AS f ON p.infobase = f.infobase AND p.culprit = f.connect_id
        WHERE f.ts >= p.ref_ts - INTERVAL 1 HOUR AND f.ts <= p.ts + INTERVAL 1 HOUR
        GROUP BY id
    ),
    resolved AS
    (
        SELECT
            id, n_facts, last, tlocks,
            arrayLast(x -> x.2 = 'BeginTransaction' AND x.1 <= ref_ts, txs) AS b,
            b.1 != toDateTime64(0, 6, 'UTC') AS begin_found,
            arrayFirst(x -> x.2 IN ('CommitTransaction', 'RollbackTransaction') AND x.1 >= b.1, txs) AS e,
            e.1 != toDateTime64(0, 6, 'UTC') AS end_found,
            arrayLast(x -> x.2 IN ('CommitTransaction', 'RollbackTransaction') AND x.1 <= ref_ts, txs) AS pe,
            begin_found AND (NOT end_found OR e.1 >= ref_ts) AS tx_found,
            multiIf(tx_found, b.1, pe.1 != toDateTime64(0, 6, 'UTC'), pe.1, ref_ts - INTERVAL 1 HOUR) AS lower_ts
        FROM gathered
    )
SELECT
    id, last.2 AS culprit_user, last.3 AS culprit_context,
    tx_found, b.1 AS tx_start, b.3 AS tx_user, b.4 AS tx_context,
    tx_found AND end_found AS tx_end_found, e.1 AS tx_end, e.2 AS tx_end_func,
    arrayFilter(x -> x.1 >= lower_ts, tlocks) AS culprit_tlocks, n_facts
FROM resolved
