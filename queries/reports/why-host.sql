-- The host side of the operations `report why` lists: atop's CPU and disk busy % over the minutes in which each
-- operation's calls ended (their tj_call_split_minute rows in the window): the mean of atop_minute's CPU figure and of
-- atop_disks' whole-disk busy % (label DSK, as atop-disk-minutes.sql) in those minutes, over every host atop ran on.
-- NULL when atop did not run then. {contexts} are the operations' first context lines (the rollup's leading key).
WITH minutes AS
(
    SELECT DISTINCT operation, minute
    FROM
    (
        SELECT
            minute,
            arrayFirstIndex((p, re, ib) -> (p != '' OR re != '') AND startsWith(context, p) AND (re = '' OR match(context, re))
                                           AND (ib = '' OR infobase = ib),
                            {op_prefixes:Array(String)}, {op_regexes:Array(String)}, {op_infobases:Array(String)}) AS rule,
            if(rule = 0, context, {op_names:Array(String)}[rule]) AS operation
        FROM tj_call_split_minute
        WHERE context IN {contexts:Array(String)} AND minute >= toStartOfMinute({from:DateTime64(6)}) AND minute < {to:DateTime64(6)}
    )
    WHERE operation IN {names:Array(String)}
),
cpu AS
(
    SELECT minute, sum(cpu_busy_pct_sum) / sum(cpu_samples) AS busy
    FROM atop_minute
    WHERE minute >= toStartOfMinute({from:DateTime64(6)}) AND minute < {to:DateTime64(6)}
    GROUP BY minute
    HAVING sum(cpu_samples) > 0
),
disk AS
(
    SELECT toStartOfMinute(ts) AS minute, avg(busy_pct) AS busy
    FROM atop_disks
    WHERE label = 'DSK' AND ts >= toStartOfMinute({from:DateTime64(6)}) AND toStartOfMinute(ts) < {to:DateTime64(6)}
    GROUP BY minute
)
SELECT
    m.operation AS operation,
    toUInt64(count()) AS minutes,
    round(avg(c.busy), 1) AS cpu_busy_pct,
    round(avg(d.busy), 1) AS disk_busy_pct
FROM minutes AS m
LEFT JOIN cpu AS c ON c.minute = m.minute
LEFT JOIN disk AS d ON d.minute = m.minute
GROUP BY operation
SETTINGS join_use_nulls = 1
