-- Reason: a tournament's tables filled empty seats and stood in for absent players with the
-- weakest AI (leicht) whatever the server said, and always let a bot play an expired turn.
-- The organiser now chooses both when creating the tournament (issue 21: the right AI in
-- every seat; issue 22: tournaments use the organiser's disconnect policy), by default the
-- server's settings. Tournaments created before keep what their tables were opened with.

ALTER TABLE tournaments ADD COLUMN ai_level TEXT NOT NULL DEFAULT 'leicht'
    CHECK (ai_level IN ('leicht', 'mittel', 'schwer'));

ALTER TABLE tournaments ADD COLUMN disconnect_policy TEXT NOT NULL DEFAULT 'bot'
    CHECK (disconnect_policy IN ('bot', 'warten', 'verloren'));
