-- Lock timeouts (TTIMEOUT) and deadlocks (TDEADLOCK) with their culprits, from the stored lock episodes
-- (docs/tj-format.md §5.4 steps 1–2, §5.5): the culprit connections are the WaitConnections ids, or for a deadlock
-- the holders of the edges on which the victim waits (§5.3), each with the user and context of its last event
-- before the victim's. A victim without a named (or not yet worked out) culprit has one line with culprit 0.
SELECT
    ts, if(kind = 'timeout', 'TTIMEOUT', 'TDEADLOCK') AS event, infobase, victim_connect_id, victim_user, victim_context,
    if(i = 0, toUInt64(0), tupleElement(named[i], 'holder')) AS culprit_connect_id,
    if(i = 0, '', tupleElement(named[i], 'user')) AS culprit_user,
    if(i = 0, '', tupleElement(named[i], 'context')) AS culprit_context
FROM
(
    SELECT ts, kind, infobase, victim_connect_id, victim_user, victim_context,
           arrayFilter(c -> kind = 'timeout' OR tupleElement(c, 'waiter') = victim_connect_id, culprits) AS named
    FROM tj_lock_episodes FINAL
    WHERE kind IN ('timeout', 'deadlock') AND ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
)
ARRAY JOIN if(empty(named), [0], arrayEnumerate(named)) AS i
ORDER BY ts
LIMIT {limit:UInt32}
