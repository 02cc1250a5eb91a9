-- 1C errors of a window (`report errors`, issue #25 item 3): EXCP and QERR events grouped by event, exception and the
-- first non-blank line of Descr (where in the platform it was raised: `src\…cpp(1129):`), with count, first and last
-- time, the contexts (first context line) and the users affected. The events come straight from tj_events: its key
-- starts with the event name, so only the EXCP and QERR granules are read (bench/report-scale.ts measures it).
SELECT
    event, exception, descr_first,
    sum(n) AS count,
    toString(min(first)) AS first_ts,
    toString(max(last)) AS last_ts,
    any(example) AS descr,
    arraySlice(arrayReverseSort(x -> x.2, groupArrayIf((context, n), context != '')), 1, {per:UInt32}) AS contexts,
    arraySort(groupUniqArrayIf(user, user != '')) AS users,
    uniqExactIf(user, user != '') AS users_count
FROM
(
    SELECT
        event, exception, descr_first, context, user, toUInt64(count()) AS n, min(ts) AS first, max(ts) AS last, any(descr) AS example
    FROM
    (
        SELECT event, exception, trim(BOTH ' \t\r' FROM arrayFirst(l -> trim(BOTH ' \t\r' FROM l) != '', splitByChar('\n', descr))) AS descr_first,
            context_first AS context, user, ts, descr
        FROM tj_events
        WHERE event IN ('EXCP', 'QERR') AND ts >= {from:DateTime64(6)} AND ts < {to:DateTime64(6)}
    )
    GROUP BY event, exception, descr_first, context, user
)
GROUP BY event, exception, descr_first
ORDER BY count DESC, event, exception, descr_first
LIMIT {limit:UInt32}
