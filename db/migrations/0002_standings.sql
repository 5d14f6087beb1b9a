-- Reason: the guild leaderboard must answer in milliseconds over 100,000+ games, so the
-- per-player sums are kept up to date when a game finishes instead of being recomputed
-- from game_results on every query. Sums are kept per guild and player: per UTC day, per
-- block of seven days (day / 7, so "this month" or "a season between two dates" adds up
-- whole weeks plus a few edge days) and for all time. AI seats have no rows. Finished games already stored are folded in here, so a
-- database from version 1 keeps its standings.

CREATE TABLE standings_daily (
    guild_id    BIGINT NOT NULL REFERENCES guilds (guild_id),
    player_id   BIGINT NOT NULL REFERENCES players (user_id),
    day         INTEGER NOT NULL,              -- days since 1970-01-01, UTC
    games       INTEGER NOT NULL,
    points      INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    solos       INTEGER NOT NULL,
    solos_won   INTEGER NOT NULL,
    re_games    INTEGER NOT NULL,
    -- Day before player: a period's query reads just the days it covers.
    PRIMARY KEY (guild_id, day, player_id)
);

-- The same sums per seven-day block: week = day / 7 (blocks start on a Thursday, as
-- 1970-01-01 did; they are only a speed-up, never shown).
CREATE TABLE standings_weekly (
    guild_id    BIGINT NOT NULL REFERENCES guilds (guild_id),
    week        INTEGER NOT NULL,
    player_id   BIGINT NOT NULL REFERENCES players (user_id),
    games       INTEGER NOT NULL,
    points      INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    solos       INTEGER NOT NULL,
    solos_won   INTEGER NOT NULL,
    re_games    INTEGER NOT NULL,
    PRIMARY KEY (guild_id, week, player_id)
);

-- All-time sums, the leaderboard's default view: one row per player and guild.
CREATE TABLE standings_total (
    guild_id    BIGINT NOT NULL REFERENCES guilds (guild_id),
    player_id   BIGINT NOT NULL REFERENCES players (user_id),
    games       INTEGER NOT NULL,
    points      INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    solos       INTEGER NOT NULL,
    solos_won   INTEGER NOT NULL,
    re_games    INTEGER NOT NULL,
    PRIMARY KEY (guild_id, player_id)
);

INSERT INTO standings_daily
    (guild_id, player_id, day, games, points, wins, solos, solos_won, re_games)
SELECT t.guild_id, r.player_id, g.finished_at / 86400000,
       COUNT(*), SUM(r.points),
       SUM(CASE WHEN r.won THEN 1 ELSE 0 END),
       SUM(CASE WHEN r.is_solo AND r.party = 're' THEN 1 ELSE 0 END),
       SUM(CASE WHEN r.is_solo AND r.party = 're' AND r.won THEN 1 ELSE 0 END),
       SUM(CASE WHEN r.party = 're' THEN 1 ELSE 0 END)
FROM game_results r
JOIN games g ON g.id = r.game_id
JOIN sessions s ON s.id = g.session_id
JOIN tables t ON t.id = s.table_id
WHERE g.status = 'finished' AND r.player_id IS NOT NULL
GROUP BY t.guild_id, r.player_id, g.finished_at / 86400000;

INSERT INTO standings_total
    (guild_id, player_id, games, points, wins, solos, solos_won, re_games)
SELECT guild_id, player_id, SUM(games), SUM(points), SUM(wins), SUM(solos), SUM(solos_won),
       SUM(re_games)
FROM standings_daily
GROUP BY guild_id, player_id;

INSERT INTO standings_weekly
    (guild_id, week, player_id, games, points, wins, solos, solos_won, re_games)
SELECT guild_id, day / 7, player_id, SUM(games), SUM(points), SUM(wins), SUM(solos),
       SUM(solos_won), SUM(re_games)
FROM standings_daily
GROUP BY guild_id, day / 7, player_id;
