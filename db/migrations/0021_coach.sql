-- Reason: a table may open with the coach (issue 21): a "Tipp" button on each hand shows
-- the AI's suggestion. Games played with help must not count on the server's leaderboard,
-- ratings or a player's figures, so the table keeps the flag it opened with and every
-- query that ranks players leaves a coached table's games out (they stay in the Spielliste).

ALTER TABLE tables ADD COLUMN coach BOOLEAN NOT NULL DEFAULT FALSE;
