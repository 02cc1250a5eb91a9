-- The longest atop sampling interval (s) in the minutes overlapping [from, to): an atop chart's bucket is never
-- finer than its samples (queries/report-html/chart-bucket.ts). NULL without samples.
SELECT max(interval_s) AS interval_s
FROM atop_system
WHERE toStartOfMinute(ts) >= toStartOfMinute({from:DateTime64(3)}) AND toStartOfMinute(ts) < {to:DateTime64(3)}
