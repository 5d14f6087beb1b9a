-- Reason: a table may open with the coach (issue 21): a "Tipp" button on each hand shows
-- the AI's suggestion. Games played with help must not count on the server's leaderboard,
-- ratings or a player's figures. Nor must a challenge's games (0020: one member alone
-- against bots on fixed deals). One flag says it for both: a table opens ranked or not, and
-- every query that ranks players leaves an unranked table's games out (they stay in the
-- Spielliste).

ALTER TABLE tables ADD COLUMN coach BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tables ADD COLUMN ranked BOOLEAN NOT NULL DEFAULT TRUE;
