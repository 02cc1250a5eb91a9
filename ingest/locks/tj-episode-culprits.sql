-- The lock resolver's lookups for a batch of tj_lock_episodes (docs/write-path.md §11): docs/tj-format.md §5.4 steps
-- 1–3 as test/reference-sql/tj-lock-culprits.sql works them out, one row per victim and culprit connection
-- (or deadlock edge waiter and holder), but over the batch's episodes and the fact tables of migration 050, and with
-- every lookup bounded by the episode's own instants (§5.5) so that an episode's answer does not depend on its batch:
--   victims   the batch's episodes ({ids}: kind|file_key|file_offset, all with ts in [{lo}, {hi}]); a TTIMEOUT is
--             paired with its own TLOCK of the wait (a wait episode of the same infobase and connection at most 1 s
--             before it, §5.2);
--   tx        the culprit's last BeginTransaction at or before ref_ts (at most an hour before) and the first
--             Commit/Rollback after it (at most an hour after the victim's event);
--   tlocks    the culprit's TLOCKs from the transaction start (else its last transaction end, else an hour back) to
--             ref_ts on the victim's lock spaces, oldest first: (ts, regions, locks, context, escalating);
--   last      the culprit's last event with a context at most an hour before the victim's event;
--   n_facts   the culprit connection's fact rows in [ref_ts − 1 h, ts + 1 h]: what the version counts.
WITH
    batch AS
    (
        SELECT kind, ts, infobase, victim_connect_id, victim_user, victim_context, file_key, file_offset, ref_ts,
               requested_regions, requested_locks, wait_connections, deadlock_intersections
        FROM tj_lock_episodes FINAL
        WHERE ts >= {lo:DateTime64(6)} AND ts <= {hi:DateTime64(6)} AND has({ids:Array(String)}, concat(kind, '|', file_key, '|', toString(file_offset)))
    ),
    waits AS
    (
        SELECT kind, ts, infobase, victim_connect_id AS victim, victim_user AS user, victim_context AS context_first, file_key, file_offset,
               toUInt8(0) AS paired, ref_ts, requested_regions AS req_regions, requested_locks AS req_locks, wait_connections AS culprits
        FROM batch
        WHERE kind = 'wait'
    ),
    timeouts AS
    (
        SELECT
            'timeout' AS kind, t.ts AS ts, t.infobase AS infobase, t.victim_connect_id AS victim, t.victim_user AS user,
            t.victim_context AS context_first, t.file_key AS file_key, t.file_offset AS file_offset,
            toUInt8(l.found = 1 AND l.ts >= t.ts - INTERVAL 1 SECOND) AS paired,
            if(paired, l.ts_start, t.ts) AS ref_ts,
            if(paired, l.regions, CAST([] AS Array(String))) AS req_regions,
            if(paired, l.locks, '') AS req_locks,
            if(notEmpty(t.wait_connections) OR NOT paired, t.wait_connections, l.wait_connections) AS culprits
        FROM (SELECT * FROM batch WHERE kind = 'timeout') AS t
        ASOF LEFT JOIN
        (
            SELECT infobase, victim_connect_id, ts, ref_ts AS ts_start, requested_regions AS regions, requested_locks AS locks, wait_connections, toUInt8(1) AS found
            FROM tj_lock_episodes FINAL
            WHERE kind = 'wait' AND ts >= {lo:DateTime64(6)} - INTERVAL 1 MINUTE AND ts <= {hi:DateTime64(6)}
        ) AS l ON t.infobase = l.infobase AND t.victim_connect_id = l.victim_connect_id AND t.ts >= l.ts
    ),
    deadlock_edges AS
    (
        SELECT
            ts, infobase, victim_user AS user, victim_context AS context_first, file_key, file_offset,
            arrayJoin(extractAllGroupsVertical(deadlock_intersections, '(?:^|,)\\s*(\\d+)\\s+(\\d+)\\s+([^\\s,]+)')) AS edge
        FROM batch
        WHERE kind = 'deadlock'
    ),
    deadlocks AS
    (
        SELECT
            'deadlock' AS kind, ts, infobase, toUInt64(edge[1]) AS victim, any(user) AS user, any(context_first) AS context_first,
            file_key, file_offset, toUInt8(0) AS paired, ts AS ref_ts, groupUniqArray(edge[3]) AS req_regions, '' AS req_locks,
            [toUInt64(edge[2])] AS culprits
        FROM deadlock_edges
        GROUP BY ts, infobase, file_key, file_offset, edge[1], edge[2]
    ),
    pairs AS
    (
        SELECT kind, ts, infobase, victim, user, context_first, file_key, file_offset, paired, ref_ts, req_regions, req_locks,
               arrayJoin(if(empty(culprits), [toUInt64(0)], culprits)) AS culprit
        FROM
        (
            SELECT kind, ts, infobase, victim, user, context_first, file_key, file_offset, paired, ref_ts, req_regions, req_locks, culprits FROM waits
            UNION ALL
            SELECT kind, ts, infobase, victim, user, context_first, file_key, file_offset, paired, ref_ts, req_regions, req_locks, culprits FROM timeouts
            UNION ALL
            SELECT kind, ts, infobase, victim, user, context_first, file_key, file_offset, paired, ref_ts, req_regions, req_locks, culprits FROM deadlocks
        )
    ),
    facts AS
    (
        -- The batch's culprit connections only: (infobase, connect_id) is the table's key prefix, so this reads their ranges.
        SELECT infobase, connect_id, ts, event, func, user, context_first, CAST(regions AS Array(String)) AS regions, locks, escalating
        FROM tj_connection_events
        WHERE (infobase, connect_id) IN (SELECT DISTINCT infobase, culprit FROM pairs WHERE culprit != 0)
          AND ts >= (SELECT min(ref_ts) FROM pairs) - INTERVAL 1 HOUR AND ts <= {hi:DateTime64(6)} + INTERVAL 1 HOUR
    ),
    with_begin AS
    (
        SELECT
            p.kind AS kind, p.ts AS ts, p.infobase AS infobase, p.victim AS victim, p.file_key AS file_key, p.file_offset AS file_offset,
            p.paired AS paired, p.ref_ts AS ref_ts, p.req_regions AS req_regions, p.req_locks AS req_locks, p.culprit AS culprit,
            b.found = 1 AND b.ts >= p.ref_ts - INTERVAL 1 HOUR AS begin_found, b.ts AS tx_start, b.user AS tx_user, b.context_first AS tx_context
        FROM pairs AS p
        ASOF LEFT JOIN
        (
            SELECT infobase, connect_id, ts, user, context_first, toUInt8(1) AS found FROM facts WHERE func = 'BeginTransaction'
        ) AS b ON p.infobase = b.infobase AND p.culprit = b.connect_id AND p.ref_ts >= b.ts
    ),
    tx_ends AS
    (
        SELECT infobase, connect_id, ts, func, toUInt8(1) AS found FROM facts WHERE func IN ('CommitTransaction', 'RollbackTransaction')
    ),
    with_end AS
    (
        SELECT w.*, e.found = 1 AND e.ts <= w.ts + INTERVAL 1 HOUR AS end_found, e.ts AS end_ts, e.func AS end_func
        FROM with_begin AS w
        ASOF LEFT JOIN tx_ends AS e ON w.infobase = e.infobase AND w.culprit = e.connect_id AND w.tx_start <= e.ts
    ),
    resolved AS
    (
        SELECT
            w.*,
            w.begin_found AND (NOT w.end_found OR w.end_ts >= w.ref_ts) AS tx_found,
            multiIf(tx_found, w.tx_start, pe.found = 1 AND pe.ts >= w.ref_ts - INTERVAL 1 HOUR, pe.ts, w.ref_ts - INTERVAL 1 HOUR) AS lower_ts
        FROM with_end AS w
        ASOF LEFT JOIN tx_ends AS pe ON w.infobase = pe.infobase AND w.culprit = pe.connect_id AND w.ref_ts >= pe.ts
    ),
    with_last AS
    (
        -- One join per SELECT, as in the reference SQL: an ASOF join is safest alone.
        SELECT r.*, if(last.ts >= r.ts - INTERVAL 1 HOUR, last.user, '') AS culprit_user, if(last.ts >= r.ts - INTERVAL 1 HOUR, last.context_first, '') AS culprit_context
        FROM resolved AS r
        ASOF LEFT JOIN
        (
            SELECT infobase, connect_id, ts, user, context_first FROM facts WHERE context_first != ''
        ) AS last ON r.infobase = last.infobase AND r.culprit = last.connect_id AND r.ts >= last.ts
    ),
    tlocks AS
    (
        SELECT
            r.kind AS kind, r.file_key AS file_key, r.file_offset AS file_offset, r.victim AS victim, r.culprit AS culprit,
            arraySort(x -> x.1, groupArray((c.ts, c.regions, c.locks, c.context_first, if(c.escalating = 1, 'true', '')))) AS culprit_tlocks
        FROM resolved AS r
        INNER JOIN (SELECT infobase, connect_id, ts, regions, locks, context_first, escalating FROM facts WHERE event = 'TLOCK') AS c
            ON r.infobase = c.infobase AND r.culprit = c.connect_id
        WHERE c.ts >= r.lower_ts AND c.ts <= r.ref_ts AND (empty(r.req_regions) OR hasAny(c.regions, r.req_regions))
        GROUP BY kind, file_key, file_offset, victim, culprit
    ),
    counted AS
    (
        SELECT p.kind AS kind, p.file_key AS file_key, p.file_offset AS file_offset, p.victim AS victim, p.culprit AS culprit, toUInt64(count()) AS n_facts
        FROM pairs AS p
        INNER JOIN facts AS f ON p.infobase = f.infobase AND p.culprit = f.connect_id
        WHERE f.ts >= p.ref_ts - INTERVAL 1 HOUR AND f.ts <= p.ts + INTERVAL 1 HOUR
        GROUP BY kind, file_key, file_offset, victim, culprit
    ),
    with_tlocks AS
    (
        SELECT r.*, t.culprit_tlocks AS culprit_tlocks
        FROM with_last AS r
        LEFT JOIN tlocks AS t
            ON r.kind = t.kind AND r.file_key = t.file_key AND r.file_offset = t.file_offset AND r.victim = t.victim AND r.culprit = t.culprit
    )
SELECT
    r.kind AS kind, r.ts AS ts, r.file_key AS file_key, r.file_offset AS file_offset, r.paired AS paired,
    r.victim AS victim_connect_id, r.ref_ts AS ref_ts, r.req_regions AS requested_regions, r.req_locks AS requested_locks,
    r.culprit AS culprit_connect_id, r.culprit_user AS culprit_user, r.culprit_context AS culprit_context,
    r.tx_found AS tx_found, r.tx_start AS tx_start, r.tx_user AS tx_user, r.tx_context AS tx_context,
    r.tx_found AND r.end_found AS tx_end_found, r.end_ts AS tx_end, r.end_func AS tx_end_func,
    r.culprit_tlocks AS culprit_tlocks, n.n_facts AS n_facts
FROM with_tlocks AS r
LEFT JOIN counted AS n
    ON r.kind = n.kind AND r.file_key = n.file_key AND r.file_offset = n.file_offset AND r.victim = n.victim AND r.culprit = n.culprit
ORDER BY ts, kind, victim_connect_id, culprit_connect_id
