-- Reason: a player whose DMs are closed (Discord answers 403, code 50007) was remembered in
-- memory only: every restart tried their hand DM again, one more invalid request each (10,000
-- in 10 minutes get the bot banned for a while), and told them again. The row is written at
-- the first 50007 and removed when the player shows the DMs may work again (a command, or a
-- click in their DMs, after they were told); told_at is when the table's channel told them.

CREATE TABLE closed_dms (
    user_id    BIGINT PRIMARY KEY,
    closed_at  BIGINT NOT NULL,        -- epoch ms of the first 50007
    told_at    BIGINT                  -- epoch ms; NULL: not told yet (their next answer will)
);
