-- Reason: a "Du bist dran" ping (a DM, or a mention in the table's channel) is deleted when
-- the turn passes. With its id only in memory, a ping sent just before the process stopped
-- stayed in the player's DM for good. A row is written right after the ping is sent and
-- deleted with the message; the next start deletes what the last process left behind.

CREATE TABLE ping_messages (
    message_id  BIGINT PRIMARY KEY,         -- a snowflake: unique across channels
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL,            -- the player pinged
    channel_id  BIGINT NOT NULL             -- their DM channel, or the table's channel
);
