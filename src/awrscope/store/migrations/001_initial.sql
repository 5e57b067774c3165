-- awrscope store, version 1. One SQL text for SQLite and PostgreSQL: the
-- migration runner substitutes {id_pk} and {blob} per dialect, nothing else.
-- Timestamps are ISO-8601 text ('YYYY-MM-DD HH:MM:SS'), which sorts and compares the same on both.

CREATE TABLE reports (
    id {id_pk},
    sha256 TEXT NOT NULL UNIQUE,
    source_name TEXT NOT NULL,
    bytes BIGINT NOT NULL,
    imported_at TEXT NOT NULL,
    analyzed_at TEXT NOT NULL,
    awrscope_version TEXT NOT NULL,
    kind TEXT NOT NULL,
    format TEXT NOT NULL,
    version TEXT,
    generation TEXT,
    dbid BIGINT,
    db_name TEXT,
    instance TEXT,
    host TEXT,
    begin_snap BIGINT,
    end_snap BIGINT,
    begin_time TEXT,
    end_time TEXT,
    elapsed_s DOUBLE PRECISION,
    db_time_s DOUBLE PRECISION,
    n_findings INTEGER NOT NULL,
    top_finding_id TEXT,
    top_finding_title TEXT,
    top_severity TEXT,
    top_pct_db_time DOUBLE PRECISION,
    analysis_json TEXT NOT NULL
);

CREATE INDEX reports_db ON reports (db_name, dbid, begin_time);
CREATE INDEX reports_instance ON reports (instance);
CREATE INDEX reports_begin ON reports (begin_time);

-- The raw report (zlib-compressed), so `db reanalyze` re-parses without a re-upload.
-- Kept apart so listing reports never reads it.
CREATE TABLE report_sources (
    report_id BIGINT PRIMARY KEY REFERENCES reports (id) ON DELETE CASCADE,
    compression TEXT NOT NULL,
    data {blob} NOT NULL
);

CREATE TABLE findings (
    report_id BIGINT NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    rank INTEGER NOT NULL,
    rule_id TEXT NOT NULL,
    severity TEXT NOT NULL,
    confidence TEXT,
    pct_db_time DOUBLE PRECISION,
    title TEXT NOT NULL,
    PRIMARY KEY (report_id, rank)
);

CREATE INDEX findings_rule ON findings (rule_id, severity);

-- Narrow metric table for trends: one numeric value per report and metric id.
CREATE TABLE metrics (
    report_id BIGINT NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    metric TEXT NOT NULL,
    value DOUBLE PRECISION NOT NULL,
    unit TEXT,
    PRIMARY KEY (report_id, metric)
);

CREATE INDEX metrics_metric ON metrics (metric, report_id);
