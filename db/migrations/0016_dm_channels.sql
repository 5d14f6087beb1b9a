-- Reason: a player's DM channel was created (POST /users/@me/channels, a request against
-- Discord's global rate limit) once per user and process: every restart created them all
-- again, one per player of every open table, in a burst. Discord's DM channel with a user
-- never changes, so its id is kept here, written the first time it is created.

CREATE TABLE dm_channels (
    user_id     BIGINT PRIMARY KEY,
    channel_id  BIGINT NOT NULL
);
