-- Settings a reload changed in a window, from the server log: the postmaster's `parameter "NAME" changed to "VALUE"`
-- lines (docs/pg-format.md §8; English messages only: a server with a translated lc_messages writes them in its
-- language, and then only the start and stop snapshots tell). Oldest first.
SELECT
    toString(ts) AS at,
    host,
    extract(message, '^parameter "([^"]+)" changed to') AS name,
    extract(message, 'changed to "(.*)"$') AS value
FROM pg_log
WHERE kind = 'other' AND severity = 'LOG' AND startsWith(message, 'parameter "') AND position(message, '" changed to "') > 0
  AND ts >= {from:DateTime64(3)} AND ts < {to:DateTime64(3)}
ORDER BY ts, name
