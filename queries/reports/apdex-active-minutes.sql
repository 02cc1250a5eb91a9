-- Minutes of a window that hold APDEX data (export measurements or TJ server calls, the two sources of apdex.sql),
-- for the HTML report's timeline: it runs apdex.sql once per such minute, so each point is `report apdex` over that
-- one minute by construction (same T rules, config and rounding). Minutes as apdex.sql takes them: those
-- overlapping [from, to). A minute of TJ calls that match no configured operation just yields no point.
SELECT DISTINCT toUnixTimestamp(minute) AS t
FROM
(
    SELECT minute FROM apdex_minute WHERE minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
    UNION ALL
    SELECT minute FROM tj_call_minute WHERE minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
)
ORDER BY t
LIMIT {limit:UInt32}
