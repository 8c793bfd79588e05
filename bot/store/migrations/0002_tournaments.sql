-- 0002: tournaments and ratings (bot/store/tournaments.py, bot/store/ratings.py).
-- Portable SQL as in 0001: plain types, ON CONFLICT, times as ISO-8601 UTC text, JSON as text.

CREATE TABLE tournaments (
    id                  INTEGER PRIMARY KEY,
    name                TEXT NOT NULL,
    guild_id            INTEGER,
    channel_id          INTEGER,
    organiser_id        INTEGER NOT NULL REFERENCES users (user_id),
    game                TEXT NOT NULL,
    options             TEXT NOT NULL,             -- JSON, resolved engine options
    format              TEXT NOT NULL,             -- round_robin | swiss | elimination | lppg_match
    swiss_rounds        INTEGER,                   -- Swiss only (NULL: chosen at start)
    time_control        TEXT NOT NULL DEFAULT 'untimed',
    forfeit_grace_hours INTEGER NOT NULL DEFAULT 24,
    status              TEXT NOT NULL,             -- signup | running | finished | cancelled
    current_round       INTEGER NOT NULL DEFAULT 0,
    created_at          TEXT NOT NULL,
    started_at          TEXT,
    finished_at         TEXT,
    updated_at          TEXT NOT NULL
);
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);

-- Sign-ups in joining order; ``seed`` is set when the tournament starts.
CREATE TABLE tournament_entrants (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    user_id        INTEGER NOT NULL REFERENCES users (user_id),
    position       INTEGER NOT NULL,
    seed           INTEGER,
    withdrawn      INTEGER NOT NULL DEFAULT 0,
    withdrawn_round INTEGER,
    joined_at      TEXT NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE tournament_rounds (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    number         INTEGER NOT NULL,
    status         TEXT NOT NULL,                 -- running | finished
    started_at     TEXT NOT NULL,
    finished_at    TEXT,
    PRIMARY KEY (tournament_id, number)
);

-- One board of a round: ``second_id`` NULL is a bye. (An LPPG match has no pairings.)
CREATE TABLE tournament_pairings (
    id             INTEGER PRIMARY KEY,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    round          INTEGER NOT NULL,
    board          INTEGER NOT NULL,
    first_id       INTEGER NOT NULL REFERENCES users (user_id),
    second_id      INTEGER REFERENCES users (user_id),
    UNIQUE (tournament_id, round, board)
);

-- Every game played for a tournament: a pairing's game (more than one when a drawn
-- elimination game is replayed) or one game of an LPPG match (pairing_id NULL).
CREATE TABLE tournament_games (
    game_id        INTEGER PRIMARY KEY REFERENCES games (id),
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    round          INTEGER NOT NULL,
    pairing_id     INTEGER REFERENCES tournament_pairings (id),
    attempt        INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX tournament_games_tournament ON tournament_games (tournament_id, round);
CREATE INDEX tournament_games_pairing ON tournament_games (pairing_id, attempt);

-- The decided result of a pairing: ``method`` game | bye | forfeit.
CREATE TABLE tournament_results (
    pairing_id     INTEGER PRIMARY KEY REFERENCES tournament_pairings (id),
    first_score    REAL NOT NULL,
    method         TEXT NOT NULL,
    game_id        INTEGER REFERENCES games (id),
    recorded_at    TEXT NOT NULL
);

-- Glicko-2 per (user, game) for two-player games.
CREATE TABLE ratings_glicko (
    user_id     INTEGER NOT NULL REFERENCES users (user_id),
    game        TEXT NOT NULL,
    rating      REAL NOT NULL,
    rd          REAL NOT NULL,
    volatility  REAL NOT NULL,
    games       INTEGER NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (user_id, game)
);
CREATE INDEX ratings_glicko_game ON ratings_glicko (game, rating);

-- openskill (Plackett-Luce) per (user, game) for games of more than two sides or players.
CREATE TABLE ratings_skill (
    user_id     INTEGER NOT NULL REFERENCES users (user_id),
    game        TEXT NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    games       INTEGER NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (user_id, game)
);
CREATE INDEX ratings_skill_game ON ratings_skill (game);

-- Finished games already applied, per purpose ('rating' | 'tournament'): exactly once each.
CREATE TABLE processed_games (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    purpose       TEXT NOT NULL,
    processed_at  TEXT NOT NULL,
    PRIMARY KEY (game_id, purpose)
);
