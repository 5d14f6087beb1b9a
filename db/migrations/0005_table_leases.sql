-- Reason: several bot processes share one database; a lease says which process acts on a
-- table, so no two ever do, also while one restarts (a killed process's lease runs out).

CREATE TABLE table_leases (
    table_id    INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    owner_id    TEXT NOT NULL,              -- the process holding it: host, pid, a random part
    expires_at  BIGINT NOT NULL,            -- epoch ms; after it anyone may claim the table
    claimed_at  BIGINT NOT NULL             -- epoch ms of the last claim by this owner
);

CREATE INDEX table_leases_owner ON table_leases (owner_id);
