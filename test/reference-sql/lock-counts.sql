-- Lock trouble in a window, for comparing runs: 1C managed-lock waits, timeouts and deadlocks from the
-- technological journal, PostgreSQL wait episodes by outcome.
SELECT
    (SELECT countIf(event = 'TLOCK' AND notEmpty(wait_connections)) FROM tj_events WHERE ts >= {from:DateTime64(3)} AND ts < {to:DateTime64(3)}) AS tj_lock_waits,
    (SELECT round(sumIf(duration_us, event = 'TLOCK' AND notEmpty(wait_connections)) / 1e6, 3) FROM tj_events WHERE ts >= {from:DateTime64(3)} AND ts < {to:DateTime64(3)}) AS tj_lock_wait_s,
    (SELECT countIf(event = 'TTIMEOUT') FROM tj_events WHERE ts >= {from:DateTime64(3)} AND ts < {to:DateTime64(3)}) AS tj_timeouts,
    (SELECT countIf(event = 'TDEADLOCK') FROM tj_events WHERE ts >= {from:DateTime64(3)} AND ts < {to:DateTime64(3)}) AS tj_deadlocks,
    (SELECT count() FROM pg_lock_waits WHERE ts_end >= {from:DateTime64(3)} AND ts_end < {to:DateTime64(3)}) AS pg_lock_waits,
    (SELECT countIf(outcome = 'lock_timeout') FROM pg_lock_waits WHERE ts_end >= {from:DateTime64(3)} AND ts_end < {to:DateTime64(3)}) AS pg_lock_timeouts,
    (SELECT countIf(outcome = 'deadlock') FROM pg_lock_waits WHERE ts_end >= {from:DateTime64(3)} AND ts_end < {to:DateTime64(3)}) AS pg_deadlocks
