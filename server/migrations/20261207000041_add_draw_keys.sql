-- Secret keys of the draws that hide gold (panel displays, the option order models see):
-- `installation` holds the per-installation secret (256 bits from the OS, made at first
-- start); `benchmark:<slug>` holds a benchmark key imported from another installation
-- (`memeboard secret import`), which then replaces the key derived from the secret for that
-- benchmark. Never sent in any response (see server/src/draws.rs).
CREATE TABLE draw_keys (
    scope TEXT PRIMARY KEY,
    key_hex TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
