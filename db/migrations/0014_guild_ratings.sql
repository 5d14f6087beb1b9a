-- Reason: ratings were global across servers, so a player's figure on one server moved with
-- games played on another, and /doko statistik could not say how often a player's Ansagen
-- came good. Ratings are now kept per server and player (OpenSkill, as before); the old
-- table `ratings` is no longer written and stays as it was. `db.migrate` fills the new table
-- right after this file by replaying every finished game in order (`db.ratings.rebuild`,
-- also `python -m db rebuild-ratings`). Each seat's result now says whether that seat made
-- an Ansage or Absage; games stored before this version count as without one (their
-- records are JSON, which SQLite and PostgreSQL read differently).

CREATE TABLE guild_ratings (
    guild_id    BIGINT NOT NULL REFERENCES guilds (guild_id),
    player_id   BIGINT NOT NULL REFERENCES players (user_id),
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    games       INTEGER NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (guild_id, player_id)
);

ALTER TABLE game_results ADD COLUMN called BOOLEAN NOT NULL DEFAULT FALSE;
