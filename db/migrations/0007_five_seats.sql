-- Reason: five-player tables (house rule; the TSR appendix for tournaments): the dealer sits
-- out each game and scores 0. A table gets a fifth seat; a game keeps four seats, so games,
-- their results and records stay as they are, and sessions and games name the table seat
-- who deals and sits out.
--
-- seats is rebuilt to widen its CHECK (SQLite cannot alter one; nothing references seats,
-- so dropping the old table loses nothing). sessions and games are referenced by other
-- tables, so they only gain a column.

CREATE TABLE seats_five (
    table_id  INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 4),
    user_id   BIGINT REFERENCES players (user_id),
    ai_level  TEXT CHECK (ai_level IN ('leicht', 'mittel', 'schwer')),
    owner_id  BIGINT REFERENCES players (user_id),
    PRIMARY KEY (table_id, seat),
    -- Exactly one of: a human or an AI.
    CHECK ((user_id IS NULL) <> (ai_level IS NULL)),
    UNIQUE (table_id, user_id)
);

INSERT INTO seats_five (table_id, seat, user_id, ai_level, owner_id)
SELECT table_id, seat, user_id, ai_level, owner_id FROM seats;

DROP TABLE seats;

ALTER TABLE seats_five RENAME TO seats;

-- Five players: the table seat who deals the next game (sessions) or dealt this one (games)
-- and sits it out; `dealer` then holds the game's dealer seat. NULL at four-player tables.
ALTER TABLE sessions ADD COLUMN sitting_out INTEGER CHECK (sitting_out BETWEEN 0 AND 4);
ALTER TABLE games ADD COLUMN sitting_out INTEGER CHECK (sitting_out BETWEEN 0 AND 4);
