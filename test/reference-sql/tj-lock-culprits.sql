-- Who blocked whom, docs/tj-format.md §5.4 steps 1–3, one row per victim and culprit connection:
--   victims   a TLOCK that waited (kind `wait`), a TTIMEOUT (`timeout`) paired with its own TLOCK of the wait
--             (same infobase and connection, written at most 1 s before: §5.2), each TDEADLOCK edge (`deadlock`,
--             the edge's waiter is the victim of its holder: §5.3);
--   ref_ts    the instant the culprit is known to hold the lock: the start of the wait, else the TTIMEOUT or
--             TDEADLOCK itself;
--   culprit   each WaitConnections id or edge holder, within the same infobase (connection numbers are per
--             infobase and reused, so every join below is on infobase + connect_id + time);
--   tx        the culprit's last SDBL BeginTransaction at or before ref_ts and the first Commit/Rollback after
--             it; tx_found = 0 when there is none or it ended before ref_ts (SDBL not logged, or the lock is
--             not from a transaction we see);
--   tlocks    the culprit's TLOCKs from the transaction start (else from its last transaction end, else one
--             hour back) up to ref_ts, on the victim's lock spaces, oldest first: (ts, regions, locks,
--             context, escalating). Step 4, which of them conflicts, is decided by parsers/tj/locks/lock-conflict.ts.
-- A timeout that names no connection keeps one row with culprit 0. Culprit events are looked for up to an hour
-- before the window (a long transaction) and an hour after it (its end).
WITH
    waits AS
    (
        SELECT
            'wait' AS kind, ts, infobase, connect_id AS victim, user, context_first, file_key, file_offset,
            ts_start AS ref_ts, CAST(regions AS Array(String)) AS req_regions, locks AS req_locks, wait_connections AS culprits
        FROM tj_events
        WHERE event = 'TLOCK' AND notEmpty(wait_connections) AND ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
    ),
    timeouts AS
    (
        SELECT
            'timeout' AS kind, t.ts AS ts, t.infobase AS infobase, t.connect_id AS victim, t.user AS user,
            t.context_first AS context_first, t.file_key AS file_key, t.file_offset AS file_offset,
            l.found = 1 AND l.ts >= t.ts - INTERVAL 1 SECOND AS paired,
            if(paired, l.ts_start, t.ts) AS ref_ts,
            if(paired, l.regions, CAST([] AS Array(String))) AS req_regions,
            if(paired, l.locks, '') AS req_locks,
            if(notEmpty(t.wait_connections) OR NOT paired, t.wait_connections, l.wait_connections) AS culprits
        FROM
        (
            SELECT ts, infobase, connect_id, user, context_first, file_key, file_offset, wait_connections
            FROM tj_events
            WHERE event = 'TTIMEOUT' AND ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
        ) AS t
        ASOF LEFT JOIN
        (
            SELECT infobase, connect_id, ts, ts_start, CAST(regions AS Array(String)) AS regions, locks, wait_connections, toUInt8(1) AS found
            FROM tj_events
            WHERE event = 'TLOCK' AND notEmpty(wait_connections) AND ts >= {from:DateTime64(6)} - INTERVAL 1 MINUTE AND ts < {to:DateTime64(6)}
        ) AS l ON t.infobase = l.infobase AND t.connect_id = l.connect_id AND t.ts >= l.ts
    ),
    deadlock_edges AS
    (
        SELECT
            ts, infobase, user, context_first, file_key, file_offset,
            arrayJoin(extractAllGroupsVertical(deadlock_intersections, '(?:^|,)\\s*(\\d+)\\s+(\\d+)\\s+([^\\s,]+)')) AS edge
        FROM tj_events
        WHERE event = 'TDEADLOCK' AND ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
    ),
    deadlocks AS
    (
        SELECT
            'deadlock' AS kind, ts, infobase, toUInt64(edge[1]) AS victim, any(user) AS user, any(context_first) AS context_first,
            file_key, file_offset, ts AS ref_ts, groupUniqArray(edge[3]) AS req_regions, '' AS req_locks, [toUInt64(edge[2])] AS culprits
        FROM deadlock_edges
        GROUP BY ts, infobase, file_key, file_offset, edge[1], edge[2]
    ),
    pairs AS
    (
        SELECT kind, ts, infobase, victim, user, context_first, file_key, file_offset, ref_ts, req_regions, req_locks,
               arrayJoin(if(empty(culprits), [toUInt64(0)], culprits)) AS culprit
        FROM
        (
            SELECT kind, ts, infobase, victim, user, context_first, file_key, file_offset, ref_ts, req_regions, req_locks, culprits FROM waits
            UNION ALL
            SELECT kind, ts, infobase, victim, user, context_first, file_key, file_offset, ref_ts, req_regions, req_locks, culprits FROM timeouts
            UNION ALL
            SELECT kind, ts, infobase, victim, user, context_first, file_key, file_offset, ref_ts, req_regions, req_locks, culprits FROM deadlocks
        )
    ),
    with_begin AS
    (
        SELECT
            p.kind AS kind, p.ts AS ts, p.infobase AS infobase, p.victim AS victim, p.user AS user, p.context_first AS context_first,
            p.file_key AS file_key, p.file_offset AS file_offset, p.ref_ts AS ref_ts, p.req_regions AS req_regions,
            p.req_locks AS req_locks, p.culprit AS culprit,
            b.found AS begin_found, b.ts AS tx_start, b.user AS tx_user, b.context_first AS tx_context
        FROM pairs AS p
        ASOF LEFT JOIN
        (
            SELECT infobase, connect_id, ts, user, context_first, toUInt8(1) AS found
            FROM tj_events
            WHERE event = 'SDBL' AND func = 'BeginTransaction' AND ts >= {from:DateTime64(6)} - INTERVAL 1 HOUR AND ts < {to:DateTime64(6)}
        ) AS b ON p.infobase = b.infobase AND p.culprit = b.connect_id AND p.ref_ts >= b.ts
    ),
    tx_ends AS
    (
        SELECT infobase, connect_id, ts, func, toUInt8(1) AS found
        FROM tj_events
        WHERE event = 'SDBL' AND func IN ('CommitTransaction', 'RollbackTransaction')
          AND ts >= {from:DateTime64(6)} - INTERVAL 1 HOUR AND ts < {to:DateTime64(6)} + INTERVAL 1 HOUR
    ),
    with_end AS
    (
        SELECT w.*, e.found AS end_found, e.ts AS end_ts, e.func AS end_func
        FROM with_begin AS w
        ASOF LEFT JOIN tx_ends AS e ON w.infobase = e.infobase AND w.culprit = e.connect_id AND w.tx_start <= e.ts
    ),
    resolved AS
    (
        SELECT
            w.*,
            w.begin_found = 1 AND (w.end_found = 0 OR w.end_ts >= w.ref_ts) AS tx_found,
            multiIf(tx_found, w.tx_start, pe.found = 1, pe.ts, w.ref_ts - INTERVAL 1 HOUR) AS lower_ts
        FROM with_end AS w
        ASOF LEFT JOIN tx_ends AS pe ON w.infobase = pe.infobase AND w.culprit = pe.connect_id AND w.ref_ts >= pe.ts
    ),
    with_last AS
    (
        -- One join per SELECT: servers on the old query analyzer rewrite a chain of joins, and an ASOF join is
        -- safest alone.
        SELECT r.*, last.user AS culprit_user, last.context_first AS culprit_context
        FROM resolved AS r
        ASOF LEFT JOIN
        (
            SELECT infobase, connect_id, ts, user, context_first
            FROM tj_events
            WHERE connect_id != 0 AND context_first != '' AND ts >= {from:DateTime64(6)} - INTERVAL 1 HOUR AND ts < {to:DateTime64(6)}
        ) AS last ON r.infobase = last.infobase AND r.culprit = last.connect_id AND r.ts >= last.ts
    ),
    tlocks AS
    (
        SELECT
            r.kind AS kind, r.file_key AS file_key, r.file_offset AS file_offset, r.victim AS victim, r.culprit AS culprit,
            arraySort(x -> x.1, groupArray((c.ts, c.regions, c.locks, c.context_first, c.escalating))) AS culprit_tlocks
        FROM resolved AS r
        INNER JOIN
        (
            SELECT infobase, connect_id, ts, CAST(regions AS Array(String)) AS regions, locks, context_first, props['escalating'] AS escalating
            FROM tj_events
            WHERE event = 'TLOCK' AND ts >= {from:DateTime64(6)} - INTERVAL 1 HOUR AND ts < {to:DateTime64(6)}
        ) AS c ON r.infobase = c.infobase AND r.culprit = c.connect_id
        WHERE c.ts >= r.lower_ts AND c.ts <= r.ref_ts AND (empty(r.req_regions) OR hasAny(c.regions, r.req_regions))
        GROUP BY kind, file_key, file_offset, victim, culprit
    )
SELECT
    r.kind AS kind, r.ts AS ts, r.infobase AS infobase, r.file_key AS file_key, r.file_offset AS file_offset,
    r.victim AS victim_connect_id, r.user AS victim_user, r.context_first AS victim_context,
    r.ref_ts AS ref_ts, r.req_regions AS requested_regions, r.req_locks AS requested_locks,
    r.culprit AS culprit_connect_id, r.culprit_user AS culprit_user, r.culprit_context AS culprit_context,
    r.tx_found AS tx_found, r.tx_start AS tx_start, r.tx_user AS tx_user, r.tx_context AS tx_context,
    r.tx_found AND r.end_found = 1 AS tx_end_found, r.end_ts AS tx_end, r.end_func AS tx_end_func,
    t.culprit_tlocks AS culprit_tlocks
FROM with_last AS r
LEFT JOIN tlocks AS t
    ON r.kind = t.kind AND r.file_key = t.file_key AND r.file_offset = t.file_offset AND r.victim = t.victim AND r.culprit = t.culprit
ORDER BY ts, kind, victim_connect_id, culprit_connect_id
LIMIT {limit:UInt32}
