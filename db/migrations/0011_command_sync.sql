-- Reason: slash commands only appeared after a manual `python -m bot sync`. The bot now
-- syncs its command tree on start when it differs from the one synced last; this row keeps
-- a hash of what was sent (the JSON payload, translations included), per application and
-- per target (all guilds, or one development guild), so an unchanged restart sends nothing.

CREATE TABLE command_sync (
    scope      TEXT PRIMARY KEY,    -- "<application id>:global" or "<application id>:<guild id>"
    tree_hash  TEXT NOT NULL        -- sha256 of the payload PUT to Discord
);
