-- Reason: Discord does not notify on message edits, so a player whose turn it is hears
-- nothing while the hand and table messages change; the bot pings them with a new message
-- once their turn has waited a while. Each player chooses the wait: never, at once, or a
-- number of seconds. A player without a row has not chosen (the bot's default applies).
-- No reference to players: the setting may be made before a player's first game.

CREATE TABLE player_notify (
    user_id     BIGINT PRIMARY KEY,         -- Discord user id
    delay_s     INTEGER CHECK (delay_s IS NULL OR delay_s >= 0),  -- NULL: never ping
    updated_at  BIGINT NOT NULL
);
