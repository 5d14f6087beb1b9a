-- Reason: the base schema: players, guilds, tables and seats, sessions, games with their
-- action logs and results, timers, ratings.
--
-- Written in the SQL that SQLite and PostgreSQL share. The one SQLite spelling is
-- `INTEGER PRIMARY KEY` for generated ids (SQLite's rowid alias). Times are Unix epoch
-- milliseconds (UTC); JSON documents are TEXT holding plain objects or lists.
-- The runner wraps this file in a transaction and sets the schema version.

CREATE TABLE players (
    user_id       BIGINT PRIMARY KEY,          -- Discord user id
    display_name  TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);

CREATE TABLE guilds (
    guild_id       BIGINT PRIMARY KEY,         -- Discord guild id
    name           TEXT NOT NULL DEFAULT '',
    language       TEXT NOT NULL DEFAULT 'de' CHECK (language IN ('de', 'en')),
    default_rules  TEXT NOT NULL DEFAULT '{}', -- Ruleset overrides, as in doko-game/1 "rules"
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);

CREATE TABLE tables (
    id                 INTEGER PRIMARY KEY,
    guild_id           BIGINT NOT NULL REFERENCES guilds (guild_id),
    channel_id         BIGINT NOT NULL,
    host_id            BIGINT NOT NULL REFERENCES players (user_id),
    rules              TEXT NOT NULL,
    status             TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'closed')),
    turn_timer_s       INTEGER CHECK (turn_timer_s IS NULL OR turn_timer_s > 0),
    games_per_session  INTEGER NOT NULL CHECK (games_per_session > 0),
    -- Bumped on every change; Discord buttons carry it, so a stale click is refused.
    version            INTEGER NOT NULL DEFAULT 0,
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL
);

CREATE INDEX tables_open ON tables (status) WHERE status <> 'closed';
CREATE INDEX tables_channel ON tables (guild_id, channel_id);

CREATE TABLE seats (
    table_id  INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id   BIGINT REFERENCES players (user_id),
    ai_level  TEXT CHECK (ai_level IN ('leicht', 'mittel', 'schwer')),
    PRIMARY KEY (table_id, seat),
    -- Exactly one of: a human or an AI.
    CHECK ((user_id IS NULL) <> (ai_level IS NULL)),
    UNIQUE (table_id, user_id)
);

CREATE TABLE sessions (
    id                INTEGER PRIMARY KEY,
    table_id          INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    games_per_round   INTEGER NOT NULL CHECK (games_per_round > 0),
    games_left        INTEGER NOT NULL CHECK (games_left >= 0),
    pflichtsolo_done  TEXT NOT NULL,           -- JSON [bool, bool, bool, bool] by seat
    dealer            INTEGER NOT NULL CHECK (dealer BETWEEN 0 AND 3),
    status            TEXT NOT NULL CHECK (status IN ('active', 'finished')),
    started_at        BIGINT NOT NULL,
    finished_at       BIGINT
);

CREATE INDEX sessions_table ON sessions (table_id, status);

CREATE TABLE games (
    id             INTEGER PRIMARY KEY,
    session_id     INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    number         INTEGER NOT NULL CHECK (number > 0),
    ruleset        TEXT NOT NULL,              -- JSON, so old games replay under their rules
    deal           TEXT NOT NULL,              -- JSON {"hands": [[card, ...] x4], ...}
    seed           TEXT,                       -- decimal; may exceed 64 bits
    dealer         INTEGER NOT NULL CHECK (dealer BETWEEN 0 AND 3),
    round_context  TEXT,                       -- JSON as doko-game/1 "round", or NULL
    status         TEXT NOT NULL CHECK (status IN ('running', 'finished', 'aborted')),
    started_at     BIGINT NOT NULL,
    finished_at    BIGINT,
    record         TEXT,                       -- the final doko-game/1 document
    UNIQUE (session_id, number)
);

CREATE INDEX games_running ON games (session_id) WHERE status = 'running';

CREATE TABLE game_actions (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    action      TEXT NOT NULL,                 -- JSON, one doko-game/1 action
    created_at  BIGINT NOT NULL,
    -- The key makes a double click or a retried write fail instead of applying twice.
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE game_results (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    player_id  BIGINT REFERENCES players (user_id),
    ai_level   TEXT CHECK (ai_level IN ('leicht', 'mittel', 'schwer')),
    party      TEXT NOT NULL CHECK (party IN ('re', 'kontra')),
    augen      INTEGER NOT NULL CHECK (augen BETWEEN 0 AND 240),
    points     INTEGER NOT NULL,
    contract   TEXT NOT NULL,
    is_solo    BOOLEAN NOT NULL,               -- the game was a solo (the soloist is "re")
    won        BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK ((player_id IS NULL) <> (ai_level IS NULL))
);

CREATE INDEX game_results_player ON game_results (player_id) WHERE player_id IS NOT NULL;

CREATE TABLE timers (
    id             INTEGER PRIMARY KEY,
    kind           TEXT NOT NULL,
    table_id       INTEGER REFERENCES tables (id) ON DELETE CASCADE,
    tournament_id  BIGINT,                     -- tournaments are not stored yet
    fires_at       BIGINT NOT NULL,
    payload        TEXT NOT NULL DEFAULT '{}',
    created_at     BIGINT NOT NULL
);

CREATE INDEX timers_fires_at ON timers (fires_at);
CREATE INDEX timers_table ON timers (table_id, kind);

CREATE TABLE ratings (
    player_id   BIGINT PRIMARY KEY REFERENCES players (user_id),
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    games       INTEGER NOT NULL,
    updated_at  BIGINT NOT NULL
);
