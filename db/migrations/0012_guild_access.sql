-- Reason: who may stop tables, remove bots and organise tournaments was not decided by the
-- server, and tournament times could only be given in UTC. A server names a bot-admin role
-- (besides Manage Server) and its time zone; times stay stored in UTC and are given and
-- shown in this zone.

ALTER TABLE guilds ADD COLUMN admin_role_id BIGINT;                       -- NULL: none named
ALTER TABLE guilds ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'Europe/Berlin';  -- IANA name
