-- Reason: the front end edits one public message per table (per game) and one hand message per
-- player (per game) in place. With their ids only in memory, a restarted process could not
-- edit them: it posted new ones and the old ones lingered with stale buttons. A row is
-- written when such a message is sent, read when a table is recovered, deleted when the
-- table closes.

CREATE TABLE table_messages (
    table_id     INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    message_id   BIGINT NOT NULL,           -- in the table's channel
    game_number  INTEGER                    -- the game it shows; NULL while it is the lobby
);

-- Only the newest game's hand message of a player is kept: an older game's is never edited.
CREATE TABLE hand_messages (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    channel_id  BIGINT NOT NULL,            -- the player's DM channel
    message_id  BIGINT NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
