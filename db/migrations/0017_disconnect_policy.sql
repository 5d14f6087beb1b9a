-- Reason: a player who stopped acting was always replaced by an AI once the turn timer
-- ran out. A group may now choose what an absence means (issue 22): 'bot' (an AI plays
-- the move, as before), 'warten' (the table waits for the player or the host's decision)
-- or 'verloren' (after a grace period the game is scored as lost for the absent party).
-- A server keeps its default for new tables; each table keeps the policy it opened with.

ALTER TABLE guilds ADD COLUMN disconnect_policy TEXT NOT NULL DEFAULT 'bot'
    CHECK (disconnect_policy IN ('bot', 'warten', 'verloren'));

ALTER TABLE tables ADD COLUMN disconnect_policy TEXT NOT NULL DEFAULT 'bot'
    CHECK (disconnect_policy IN ('bot', 'warten', 'verloren'));
