-- Reason: a game people want to talk about had only its doko-game/1 file (/doko export).
-- A table may now open a replay thread on its table message when a game ends (issue 22):
-- the trick-by-trick protocol with buttons to step through it. Tables choose it when they
-- open (tournament tables on), a server keeps its default for new tables, and the thread
-- of each game is kept so that a restarted process does not open a second one.

ALTER TABLE guilds ADD COLUMN replay_thread BOOLEAN NOT NULL DEFAULT FALSE;

ALTER TABLE tables ADD COLUMN replay_thread BOOLEAN NOT NULL DEFAULT FALSE;

-- thread_id NULL: the thread could not be opened there (a permission was missing), and is
-- not tried again for that game.
CREATE TABLE replay_threads (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    thread_id   BIGINT,
    message_id  BIGINT
);
