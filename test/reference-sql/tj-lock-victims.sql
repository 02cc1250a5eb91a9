-- Lock timeouts (TTIMEOUT) and deadlocks (TDEADLOCK) with their culprits (docs/tj-format.md §5.4 steps 1–2):
-- the culprit connections are the WaitConnections ids, or for a deadlock the holders of the edges on
-- which the victim waits (`<waiter> <holder> <space> …`, §5.3); each is resolved within the same
-- infobase to its last event before the victim's, for its user and context.
WITH victims AS
(
    SELECT
        ts, event, infobase, connect_id, user, context_first,
        if(event = 'TDEADLOCK',
           arrayMap(e -> toUInt64(e[2]),
                    arrayFilter(e -> toUInt64(e[1]) = connect_id,
                                extractAllGroupsVertical(deadlock_intersections, '(?:^|,)\\s*(\\d+)\\s+(\\d+)\\s'))),
           wait_connections) AS culprits
    FROM tj_events
    WHERE event IN ('TTIMEOUT', 'TDEADLOCK') AND ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
),
expanded AS
(
    SELECT ts, event, infobase, connect_id, user, context_first, arrayJoin(if(empty(culprits), [toUInt64(0)], culprits)) AS culprit
    FROM victims
)
SELECT
    e.ts AS ts, e.event AS event, e.infobase AS infobase,
    e.connect_id AS victim_connect_id, e.user AS victim_user, e.context_first AS victim_context,
    e.culprit AS culprit_connect_id, c.user AS culprit_user, c.context_first AS culprit_context
FROM expanded AS e
ASOF LEFT JOIN
(
    SELECT infobase, connect_id, ts, user, context_first
    FROM tj_events
    WHERE connect_id != 0 AND context_first != '' AND ts >= {from:DateTime64(6)} - INTERVAL 1 HOUR AND ts < {to:DateTime64(6)}
) AS c ON e.infobase = c.infobase AND e.culprit = c.connect_id AND e.ts >= c.ts
ORDER BY ts
LIMIT {limit:UInt32}
