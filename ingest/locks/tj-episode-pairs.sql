-- The lock resolver's victims and culprit connections for a batch of tj_lock_episodes (docs/write-path.md §11),
-- docs/tj-format.md §5.4 steps 1–2 as test/reference-sql/tj-lock-culprits.sql finds them, one row per victim and
-- culprit connection (or deadlock edge waiter and holder; culprit 0 when a timeout names none): the batch's episodes
-- ({ids}: kind|file_key|file_offset, all with ts in [{lo}, {hi}]); a TTIMEOUT paired with its own TLOCK of the wait
-- (a wait episode of the same infobase and connection at most 1 s before it, §5.2). tj-episode-culprits.sql looks
-- each culprit up.
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
    )
SELECT kind, file_key, file_offset, paired, victim AS victim_connect_id, infobase, ts, ref_ts, req_regions AS requested_regions,
       req_locks AS requested_locks, culprit AS culprit_connect_id
FROM pairs
ORDER BY ts, kind, victim_connect_id, culprit_connect_id
