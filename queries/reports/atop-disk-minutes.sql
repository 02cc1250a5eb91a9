-- Disk busy % per host, disk and minute from atop (atop_disks): mean and peak of the samples in the minute.
-- Whole disks only (label DSK): LVM volumes and md devices sit on them and would show the same busy time again.
-- Minutes are taken as apdex.sql takes them: every minute overlapping [from, to). {bucket_s} is the width of a
-- point: 60, or a divisor of it for a short window (queries/report-html/chart-bucket.ts).
SELECT
    toUInt32(intDiv(toUnixTimestamp(d.ts), {bucket_s:UInt32}) * {bucket_s:UInt32}) AS t,
    d.host AS host,
    d.name AS disk,
    round(avg(d.busy_pct), 1) AS busy_pct,
    round(max(d.busy_pct), 1) AS busy_pct_max
FROM atop_disks AS d
WHERE d.label = 'DSK' AND d.ts >= toStartOfMinute({from:DateTime64(3)}) AND toStartOfMinute(d.ts) < {to:DateTime64(3)}
GROUP BY host, disk, t
ORDER BY host, disk, t
