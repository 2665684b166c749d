-- Figures a paper published (its model and human scores), imported by the benchmark's owner
-- (`memeboard import published`) and shown on boards as marked reference rows with their
-- citation. A re-import replaces every figure of the benchmark in one transaction.
CREATE TABLE paper_figures (
    id TEXT PRIMARY KEY,
    benchmark_id TEXT NOT NULL REFERENCES benchmarks (id),
    task_id TEXT NOT NULL REFERENCES tasks (id),
    ordinal BIGINT NOT NULL,
    model TEXT NOT NULL,
    conditions_json TEXT NOT NULL,
    metric TEXT NOT NULL,
    category TEXT,
    subset TEXT NOT NULL,
    value DOUBLE PRECISION NOT NULL,
    n BIGINT,
    source TEXT NOT NULL,
    imported_at BIGINT NOT NULL
);
CREATE INDEX paper_figures_task ON paper_figures (task_id, ordinal);
CREATE INDEX paper_figures_benchmark ON paper_figures (benchmark_id);
