-- The same profile from pg_wait_sampling's history (when the extension was installed): one row per history_period
-- (10 ms by default) observation, so short waits that fall between pg_activity's samples count too. A backend on
-- CPU has no event (`CPU`, as in pg-wait-events.sql).
SELECT kind AS wait_event_type, wait_event, count() AS samples, round(sum(period_ms) / 1000, 3) AS seconds
FROM
(
    SELECT if(wait_event_type = '', 'CPU', wait_event_type) AS kind, wait_event, period_ms
    FROM pg_wait_samples
    WHERE ts >= {from:DateTime64(3)} AND ts < {to:DateTime64(3)}
)
GROUP BY wait_event_type, wait_event
ORDER BY seconds DESC, samples DESC, wait_event_type, wait_event
LIMIT {limit:UInt32}
