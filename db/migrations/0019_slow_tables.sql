-- Reason: a turn timer was seconds, so a group that cannot meet at once could not play
-- (issue 22). A slow table gives each move hours or days (tempo_s, in place of the turn
-- timer) and reminds the player by DM. A server keeps its default for new tables. The
-- reminders need no table of their own: which were sent is kept with the turn's deadline
-- in timers.payload ("reminded"), so a restart neither loses nor repeats one.

ALTER TABLE guilds ADD COLUMN tempo_s INTEGER
    CHECK (tempo_s IS NULL OR tempo_s >= 3600);                     -- NULL: not slow
ALTER TABLE tables ADD COLUMN tempo_s INTEGER
    CHECK (tempo_s IS NULL OR tempo_s >= 3600);                     -- NULL: not slow
