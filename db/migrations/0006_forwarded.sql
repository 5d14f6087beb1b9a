-- Reason: Discord delivers interactions in DMs (the hand's buttons, slash commands there) to
-- shard 0 only. The process that receives one for a table another process runs stores it
-- here before acknowledging it; the process holding the table's lease applies it and
-- answers through the interaction's webhook (application id and token).

CREATE TABLE forwarded_interactions (
    id              INTEGER PRIMARY KEY,
    table_id        INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL CHECK (kind IN ('click', 'karten', 'ansage', 'stand', 'regeln')),
    custom_id       TEXT NOT NULL,              -- the button's or select's id; a command's name
    args            TEXT NOT NULL DEFAULT '[]', -- JSON list: the select's picks; the command's option
    user_id         BIGINT NOT NULL,
    locale          TEXT NOT NULL,
    application_id  BIGINT NOT NULL,
    token           TEXT NOT NULL,              -- lives 15 minutes; cleared once answered
    channel_id      BIGINT,                     -- where it happened (the DM)
    message_id      BIGINT,                     -- the clicked message
    created_at      BIGINT NOT NULL,            -- epoch ms
    state           TEXT NOT NULL DEFAULT 'pending'
                    CHECK (state IN ('pending', 'done', 'failed', 'orphaned')),
    handled_at      BIGINT                      -- epoch ms; NULL while pending
);

CREATE INDEX forwarded_interactions_pending
    ON forwarded_interactions (table_id, id) WHERE state = 'pending';
