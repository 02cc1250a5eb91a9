-- A run's context as recorded at `runs start` ({origin} 'start') or `runs stop` ('stop'): the latest snapshot's
-- value of every fact (queries/ddl/061_run_context.sql).
SELECT scope, name, argMax(value, observed_at) AS value, argMax(source, observed_at) AS source, toString(max(observed_at)) AS last_observed
FROM run_context
WHERE run = {run:String} AND origin = {origin:String}
GROUP BY scope, name
ORDER BY scope, name
