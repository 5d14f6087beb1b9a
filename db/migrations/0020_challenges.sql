-- Reason: server challenges with duplicate deals (issue 22): everyone plays the same
-- pre-shuffled deals alone against three AIs and is compared with everyone who held the
-- same hand in the same seat. A challenge keeps its seed, rules and end; an entry links a
-- member to the one table (in their DM) where they play it. The results are read from that
-- table's games, so nothing is stored twice.

CREATE TABLE challenges (
    id          INTEGER PRIMARY KEY,
    guild_id    BIGINT NOT NULL,
    channel_id  BIGINT NOT NULL,               -- where it was created: the summary goes here
    creator_id  BIGINT NOT NULL,
    deals       INTEGER NOT NULL CHECK (deals >= 1),
    seed        BIGINT NOT NULL,
    preset      TEXT NOT NULL,
    rules       TEXT NOT NULL,                 -- the Ruleset as JSON
    ai_level    TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'ended')),
    ends_at     BIGINT NOT NULL,
    created_at  BIGINT NOT NULL
);

CREATE INDEX challenges_guild ON challenges (guild_id, status);

CREATE TABLE challenge_entries (
    challenge_id  INTEGER NOT NULL REFERENCES challenges (id) ON DELETE CASCADE,
    user_id       BIGINT NOT NULL,
    table_id      INTEGER NOT NULL REFERENCES tables (id),
    started_at    BIGINT NOT NULL,
    PRIMARY KEY (challenge_id, user_id)
);

CREATE INDEX challenge_entries_table ON challenge_entries (table_id);
