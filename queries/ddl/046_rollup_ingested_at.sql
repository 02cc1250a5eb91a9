-- Retention counts from when rows arrived, not from the events' own time: `perfpipe ingest` of a load test recorded
-- months ago must keep what it reads (a TTL on event time dropped such rows as they were inserted: the chaos run
-- stored 0 of 100,000 events dated March). Raw tables have ingested_at; the rollups get the latest arrival of what
-- each row sums (max when rows merge), which their TTL counts from (ingest/store/retention.ts).
ALTER TABLE tj_lock_minute ADD COLUMN IF NOT EXISTS ingested_at SimpleAggregateFunction(max, DateTime) DEFAULT now();

ALTER TABLE tj_call_minute ADD COLUMN IF NOT EXISTS ingested_at SimpleAggregateFunction(max, DateTime) DEFAULT now();

ALTER TABLE apdex_minute ADD COLUMN IF NOT EXISTS ingested_at SimpleAggregateFunction(max, DateTime) DEFAULT now();

ALTER TABLE atop_minute ADD COLUMN IF NOT EXISTS ingested_at SimpleAggregateFunction(max, DateTime) DEFAULT now();
