-- Issue 15, starred items. Append-only.
-- A person's stars, keyed by the person first (the sharding key). star_id comes from storage's
-- IdGenerator when the star is made (time-ordered), so "newest starred first" pages by it; starring
-- again what is starred keeps the first star. Stars do not hang off inbox rows: a starred item stays
-- starred after it leaves the home window or its inbox row is trimmed. A tombstoned item's star is
-- left in place and filtered out when read.
CREATE TABLE stars (
    user_id    BIGINT      NOT NULL,
    item_id    BIGINT      NOT NULL,
    star_id    BIGINT      NOT NULL,
    starred_at DATETIME(6) NOT NULL,
    PRIMARY KEY (user_id, item_id),
    UNIQUE KEY stars_newest (user_id, star_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- How many stars a person has, moved in the transaction that stars or unstars; its row lock
-- serialises one person's stars, so the cap (tributary.stars.max-per-person) holds exactly.
CREATE TABLE star_counts (
    user_id BIGINT NOT NULL,
    stars   BIGINT NOT NULL,
    PRIMARY KEY (user_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
