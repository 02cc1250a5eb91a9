-- atop samples (atop -P text, parsers/atop/): what atop/atopsar show per sample, derived by parsers/atop/derive.ts.
-- A since-boot sample (after RESET) is never stored: its deltas count from boot (docs/atop-format.md §2).
-- Rates are per second over the sample's elapsed time; (host, file_key, file_offset) is the sample's place in its
-- file, and inserts carry insert_deduplication_token = segment id, so a replayed segment stores nothing twice.
CREATE TABLE IF NOT EXISTS atop_system
(
    ts DateTime64(3, 'UTC') CODEC(Delta(8), ZSTD(1)),
    host LowCardinality(String),
    file_key String CODEC(ZSTD(1)),
    file_offset UInt64 CODEC(Delta(8), ZSTD(1)),
    interval_s UInt32,
    elapsed_s Float64,
    nrcpu UInt16,
    cpu_busy_pct Nullable(Float64),
    cpu_user_pct Nullable(Float64),
    cpu_system_pct Nullable(Float64),
    cpu_iowait_pct Nullable(Float64),
    cpu_steal_pct Nullable(Float64),
    load1 Nullable(Float64),
    load5 Nullable(Float64),
    load15 Nullable(Float64),
    run_queue Nullable(UInt32),
    context_switches_per_s Nullable(Float64),
    interrupts_per_s Nullable(Float64),
    mem_total_bytes Nullable(UInt64),
    mem_used_bytes Nullable(Int64),
    mem_used_pct Nullable(Float64),
    mem_free_bytes Nullable(UInt64),
    mem_cache_bytes Nullable(UInt64),
    mem_buffers_bytes Nullable(UInt64),
    mem_dirty_bytes Nullable(UInt64),
    mem_available_bytes Nullable(UInt64),
    swap_total_bytes Nullable(UInt64),
    swap_used_bytes Nullable(Int64),
    swap_used_pct Nullable(Float64),
    ingested_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (host, ts)
SETTINGS non_replicated_deduplication_window = 10000;

-- cpu = -1 is the machine (CPU line); 0..n the cores (cpu lines). busy_pct is 0–100 for both; the machine's
-- categories are per CPU-equivalent (they sum to nrcpu × 100), as atopsar's `all` line.
CREATE TABLE IF NOT EXISTS atop_cpu
(
    ts DateTime64(3, 'UTC') CODEC(Delta(8), ZSTD(1)),
    host LowCardinality(String),
    file_key String CODEC(ZSTD(1)),
    file_offset UInt64 CODEC(Delta(8), ZSTD(1)),
    cpu Int16,
    busy_pct Float64,
    user_pct Float64,
    nice_pct Float64,
    system_pct Float64,
    irq_pct Float64,
    softirq_pct Float64,
    iowait_pct Float64,
    idle_pct Float64,
    steal_pct Float64,
    guest_pct Float64,
    ingested_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (host, cpu, ts)
SETTINGS non_replicated_deduplication_window = 10000;

-- label DSK (whole disk), LVM (logical volume) or MDD (md device).
CREATE TABLE IF NOT EXISTS atop_disks
(
    ts DateTime64(3, 'UTC') CODEC(Delta(8), ZSTD(1)),
    host LowCardinality(String),
    file_key String CODEC(ZSTD(1)),
    file_offset UInt64 CODEC(Delta(8), ZSTD(1)),
    label LowCardinality(String),
    name LowCardinality(String),
    busy_pct Float64,
    reads_per_s Float64,
    writes_per_s Float64,
    read_kib_per_s Float64,
    write_kib_per_s Float64,
    avg_service_ms Nullable(Float64),
    avg_queue Nullable(Float64),
    inflight Nullable(Float64),
    ingested_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (host, name, ts)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE TABLE IF NOT EXISTS atop_interfaces
(
    ts DateTime64(3, 'UTC') CODEC(Delta(8), ZSTD(1)),
    host LowCardinality(String),
    file_key String CODEC(ZSTD(1)),
    file_offset UInt64 CODEC(Delta(8), ZSTD(1)),
    name LowCardinality(String),
    rx_packets_per_s Float64,
    tx_packets_per_s Float64,
    rx_kib_per_s Float64,
    tx_kib_per_s Float64,
    speed_mbps Nullable(Float64),
    busy_pct Nullable(Float64),
    ingested_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (host, name, ts)
SETTINGS non_replicated_deduplication_window = 10000;

-- The 10 busiest processes (is_process y) of each sample per measure: cpu (PRC), memory (PRM RSS), disk (PRD).
-- Only the row's own measure has values; the others are NULL.
CREATE TABLE IF NOT EXISTS atop_top_processes
(
    ts DateTime64(3, 'UTC') CODEC(Delta(8), ZSTD(1)),
    host LowCardinality(String),
    file_key String CODEC(ZSTD(1)),
    file_offset UInt64 CODEC(Delta(8), ZSTD(1)),
    measure LowCardinality(String),
    rank UInt8,
    pid UInt32,
    name LowCardinality(String),
    cpu_pct Nullable(Float64),
    rss_kib Nullable(Float64),
    vmem_kib Nullable(Float64),
    rss_growth_kib Nullable(Float64),
    read_kib_per_s Nullable(Float64),
    write_kib_per_s Nullable(Float64),
    ingested_at DateTime DEFAULT now()
)
ENGINE = MergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (host, measure, ts, rank)
SETTINGS non_replicated_deduplication_window = 10000;

-- Per-minute rollup of atop_system: averages are `x_sum / x_samples` (a figure absent from a sample, e.g. no CPU
-- line requested, is not counted), maxima as they are. Fed by atop_minute_mv on every insert.
CREATE TABLE IF NOT EXISTS atop_minute
(
    minute DateTime('UTC'),
    host LowCardinality(String),
    samples SimpleAggregateFunction(sum, UInt64),
    cpu_samples SimpleAggregateFunction(sum, UInt64),
    cpu_busy_pct_sum SimpleAggregateFunction(sum, Float64),
    cpu_busy_pct_max SimpleAggregateFunction(max, Float64),
    cpu_iowait_pct_sum SimpleAggregateFunction(sum, Float64),
    cpu_steal_pct_sum SimpleAggregateFunction(sum, Float64),
    load1_max SimpleAggregateFunction(max, Float64),
    run_queue_max SimpleAggregateFunction(max, UInt32),
    mem_used_pct_max SimpleAggregateFunction(max, Float64),
    swap_used_bytes_max SimpleAggregateFunction(max, Int64)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(minute)
ORDER BY (host, minute);

CREATE MATERIALIZED VIEW IF NOT EXISTS atop_minute_mv TO atop_minute AS
SELECT
    toStartOfMinute(ts) AS minute,
    host,
    toUInt64(count()) AS samples,
    toUInt64(countIf(isNotNull(cpu_busy_pct))) AS cpu_samples,
    toFloat64(sum(ifNull(cpu_busy_pct, 0))) AS cpu_busy_pct_sum,
    toFloat64(max(ifNull(cpu_busy_pct, 0))) AS cpu_busy_pct_max,
    toFloat64(sum(ifNull(cpu_iowait_pct, 0))) AS cpu_iowait_pct_sum,
    toFloat64(sum(ifNull(cpu_steal_pct, 0))) AS cpu_steal_pct_sum,
    toFloat64(max(ifNull(load1, 0))) AS load1_max,
    toUInt32(max(ifNull(run_queue, 0))) AS run_queue_max,
    toFloat64(max(ifNull(mem_used_pct, 0))) AS mem_used_pct_max,
    toInt64(max(ifNull(swap_used_bytes, 0))) AS swap_used_bytes_max
FROM atop_system
GROUP BY minute, host;
