-- Reason: a server could not set its own defaults: every table started from DDV with no
-- turn timer, AI seats were filled and stand-ins played at the easiest level, public
-- messages always followed the server's Discord locale and every player without a ping
-- choice waited 20 s. A server now keeps its defaults for new tables (the rules stay in
-- default_rules), and each table keeps the AI level its empty seats and stand-ins get.
-- public_language replaces guilds.language (0001), which nothing ever read; that column
-- stays, unused, because dropping a column needs SQLite 3.35.

ALTER TABLE guilds ADD COLUMN turn_timer_s INTEGER
    CHECK (turn_timer_s IS NULL OR turn_timer_s >= 5);              -- NULL: no turn timer
ALTER TABLE guilds ADD COLUMN ai_level TEXT NOT NULL DEFAULT 'mittel'
    CHECK (ai_level IN ('leicht', 'mittel', 'schwer'));
ALTER TABLE guilds ADD COLUMN public_language TEXT NOT NULL DEFAULT 'server'
    CHECK (public_language IN ('server', 'de', 'en'));              -- server: its Discord locale
ALTER TABLE guilds ADD COLUMN notify_delay_s INTEGER DEFAULT 20
    CHECK (notify_delay_s IS NULL OR notify_delay_s >= 0);          -- NULL: never ping

-- Tables opened before this migration keep the level their stand-ins had.
ALTER TABLE tables ADD COLUMN ai_level TEXT NOT NULL DEFAULT 'leicht'
    CHECK (ai_level IN ('leicht', 'mittel', 'schwer'));
