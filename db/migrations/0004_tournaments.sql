-- Reason: mandatory-solo tournaments: the tournament and its field, the tables of each
-- round (each an engine table in its own thread), who sits where from which game on (AI
-- substitutes included), and the organiser's corrections as an audit log.
--
-- Written in the SQL that SQLite and PostgreSQL share (see 0001_base.sql). Times are Unix
-- epoch milliseconds (UTC); JSON documents are TEXT. The start timer lives in `timers`
-- (kind 'tournament_start', `tournament_id` set).

CREATE TABLE tournaments (
    id               INTEGER PRIMARY KEY,
    guild_id         BIGINT NOT NULL,
    channel_id       BIGINT NOT NULL,            -- where it was created; threads hang off it
    organiser_id     BIGINT NOT NULL REFERENCES players (user_id),
    name             TEXT NOT NULL,
    preset           TEXT NOT NULL,
    rules            TEXT NOT NULL,              -- JSON Ruleset, as in doko-game/1 "rules"
    rounds           INTEGER NOT NULL CHECK (rounds > 0),
    games_per_round  INTEGER NOT NULL CHECK (games_per_round > 0),
    seating          TEXT NOT NULL CHECK (seating IN ('mixing', 'standing')),
    seed             TEXT NOT NULL,              -- decimal; seats every round reproducibly
    status           TEXT NOT NULL
                     CHECK (status IN ('open', 'running', 'paused', 'ending', 'finished')),
    current_round    INTEGER NOT NULL DEFAULT 0 CHECK (current_round >= 0),
    starts_at        BIGINT,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);

CREATE INDEX tournaments_guild ON tournaments (guild_id, status);

CREATE TABLE tournament_players (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id        BIGINT NOT NULL REFERENCES players (user_id),
    status         TEXT NOT NULL CHECK (status IN ('registered', 'withdrawn', 'replaced')),
    registered_at  BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE tournament_tables (
    id             INTEGER PRIMARY KEY,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_number   INTEGER NOT NULL CHECK (round_number > 0),
    number         INTEGER NOT NULL CHECK (number > 0),
    table_id       INTEGER REFERENCES tables (id),  -- the engine table, once opened
    channel_id     BIGINT NOT NULL,                 -- its thread (or channel)
    first_dealer   INTEGER NOT NULL CHECK (first_dealer >= 0),
    status         TEXT NOT NULL CHECK (status IN ('seating', 'playing', 'finished')),
    UNIQUE (tournament_id, round_number, number)
);

CREATE INDEX tournament_tables_table ON tournament_tables (table_id);

-- Who plays a seat from game `from_game` on: a registered player or AI substitute number n.
CREATE TABLE tournament_seats (
    tournament_table_id  INTEGER NOT NULL REFERENCES tournament_tables (id) ON DELETE CASCADE,
    seat                 INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 4),
    from_game            INTEGER NOT NULL CHECK (from_game > 0),
    user_id              BIGINT REFERENCES players (user_id),
    substitute           INTEGER CHECK (substitute IS NULL OR substitute > 0),
    PRIMARY KEY (tournament_table_id, seat, from_game),
    CHECK ((user_id IS NULL) <> (substitute IS NULL))
);

CREATE TABLE tournament_corrections (
    id             INTEGER PRIMARY KEY,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_number   INTEGER NOT NULL,
    table_number   INTEGER NOT NULL,
    game_number    INTEGER NOT NULL,
    scores_before  TEXT NOT NULL,               -- JSON [[participant, points], ...]
    scores_after   TEXT NOT NULL,
    reason         TEXT NOT NULL CHECK (reason <> ''),
    by_id          BIGINT NOT NULL,
    created_at     BIGINT NOT NULL
);

CREATE INDEX tournament_corrections_of ON tournament_corrections (tournament_id, id);
