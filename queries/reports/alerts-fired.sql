-- Alerts the lock alerter fired in a window (the `alerts` table, ingest/alert/): one row per alert group that sent a
-- firing notice, with its first notice's time, the events it counted by its last notice, and that notice's labels and
-- latest example (who waited, on what, behind whom). Read by `perfpipe demo` for its "Alerts fired" section.
SELECT
    min(sent_at) AS first_sent_at,
    alertname,
    any(severity) AS severity,
    argMax(labels, (sequence, sent_at)) AS labels,
    max(count) AS events,
    argMax(examples[-1], (sequence, sent_at)) AS last_example
FROM alerts
WHERE status = 'firing' AND sent_at >= {from:DateTime64(3)} AND sent_at < {to:DateTime64(3)}
GROUP BY fingerprint, alertname
ORDER BY first_sent_at, alertname
LIMIT {limit:UInt32}
