-- cp-bench's results history, version 1 (docs/history.md). Plain SQL that SQLite and PostgreSQL both take.
-- Instants are ISO-8601 UTC text ('2026-11-28T05:27:00Z'), which sorts in time order.

CREATE TABLE runs (
    id              VARCHAR(64)  PRIMARY KEY,   -- a hash of what the run measured: the same run imported twice is one row
    kind            VARCHAR(32)  NOT NULL,      -- matrix, run, load, sweep, chaos, ab, jmh, ...
    started_at      VARCHAR(40),
    ended_at        VARCHAR(40),
    status          VARCHAR(16)  NOT NULL,      -- the worst of its results' statuses (OK ... FAIL)
    cpbench_version VARCHAR(64),
    cpbench_commit  VARCHAR(64),
    member_release  VARCHAR(64),                -- the Hazelcast release the members ran
    client_release  VARCHAR(64),                -- the Hazelcast release of cp-bench's clients
    topology        VARCHAR(64),
    host            VARCHAR(255),
    cores           INTEGER,
    max_heap_mb     BIGINT,
    os              VARCHAR(255),
    jvm             VARCHAR(255),
    options         TEXT,                       -- the command line's options, secrets never among them
    directory       TEXT,                       -- where its result files are
    recorded_at     VARCHAR(40)  NOT NULL
);
CREATE INDEX runs_started ON runs (started_at);

CREATE TABLE run_labels (
    run_id VARCHAR(64)  NOT NULL REFERENCES runs (id),
    name   VARCHAR(64)  NOT NULL,
    value  VARCHAR(255) NOT NULL,
    PRIMARY KEY (run_id, name)
);

-- One row per scenario (or load op, sweep cell, ab side) and round of a run.
CREATE TABLE measurements (
    run_id           VARCHAR(64)  NOT NULL REFERENCES runs (id),
    scenario         VARCHAR(128) NOT NULL,
    variant          VARCHAR(128) NOT NULL,     -- '' but for a sweep's cell (2x8), a chaos nemesis, an ab side
    op               VARCHAR(32)  NOT NULL,     -- 'all' for a scenario's one op and a load's total; else the load op
    harness          VARCHAR(32)  NOT NULL,     -- driver, load, jmh-thrpt, jmh-sample, sweep, chaos, ab
    round            INTEGER      NOT NULL,
    network          VARCHAR(16),               -- a (plain) or b (one slow member)
    status           VARCHAR(16)  NOT NULL,
    started_at       VARCHAR(40),
    ops              BIGINT,
    errors           BIGINT,
    ops_per_second   DOUBLE PRECISION,
    p50_us           BIGINT,
    p90_us           BIGINT,
    p99_us           BIGINT,
    p999_us          BIGINT,
    max_us           BIGINT,
    censored_from_us BIGINT,                    -- percentiles at or above it are lower bounds; null when none
    leader_before    VARCHAR(128),
    leader_after     VARCHAR(128),
    term_before      INTEGER,
    term_after       INTEGER,
    PRIMARY KEY (run_id, scenario, variant, op, harness, round)
);
CREATE INDEX measurements_series ON measurements (scenario, variant, op, harness);

-- A change point someone has looked at: history regressions gates only on newer ones.
CREATE TABLE acks (
    series   VARCHAR(512) NOT NULL,
    run_id   VARCHAR(64)  NOT NULL,             -- the first run after the change
    reason   TEXT         NOT NULL,
    acked_at VARCHAR(40)  NOT NULL,
    PRIMARY KEY (series, run_id)
);
