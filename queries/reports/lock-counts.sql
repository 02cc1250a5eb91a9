-- Lock trouble in a window, for comparing runs: 1C managed-lock waits, their total wait, timeouts and deadlocks
-- from the stored lock episodes (docs/tj-format.md §5.5: one row per victim event), PostgreSQL wait episodes by
-- outcome.
SELECT t.tj_lock_waits AS tj_lock_waits, t.tj_lock_wait_s AS tj_lock_wait_s, t.tj_timeouts AS tj_timeouts, t.tj_deadlocks AS tj_deadlocks,
       p.pg_lock_waits AS pg_lock_waits, p.pg_lock_timeouts AS pg_lock_timeouts, p.pg_deadlocks AS pg_deadlocks
FROM
(
    SELECT
        countIf(kind = 'wait') AS tj_lock_waits, round(sumIf(wait_us, kind = 'wait') / 1e6, 3) AS tj_lock_wait_s,
        countIf(kind = 'timeout') AS tj_timeouts, countIf(kind = 'deadlock') AS tj_deadlocks
    FROM tj_lock_episodes FINAL
    WHERE ts >= {from:DateTime64(3)} AND ts < {to:DateTime64(3)}
) AS t
CROSS JOIN
(
    SELECT count() AS pg_lock_waits, countIf(outcome = 'lock_timeout') AS pg_lock_timeouts, countIf(outcome = 'deadlock') AS pg_deadlocks
    FROM pg_lock_waits
    WHERE ts_end >= {from:DateTime64(3)} AND ts_end < {to:DateTime64(3)}
) AS p
