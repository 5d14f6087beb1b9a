-- Reason: a player who leaves mid-game hands the seat to an AI and may take it back, also
-- after a restart; owner_id remembers whose seat the AI keeps warm (NULL otherwise).

ALTER TABLE seats ADD COLUMN owner_id BIGINT REFERENCES players (user_id);
