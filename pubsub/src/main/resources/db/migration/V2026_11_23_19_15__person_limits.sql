-- One row per person that has created something counted by a limit (tributary.limits.*): the
-- creating transaction locks it before counting, so one person's parallel requests cannot all
-- pass the same count. locks only gives the upsert something to write.
CREATE TABLE person_locks (
    user_id BIGINT NOT NULL,
    locks   BIGINT NOT NULL,
    PRIMARY KEY (user_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- A group owner's invitation, pending until the person accepts (becoming a member) or declines.
CREATE TABLE group_invitations (
    user_id    BIGINT      NOT NULL,
    id         BIGINT      NOT NULL,
    group_id   BIGINT      NOT NULL,
    inviter_id BIGINT      NOT NULL,
    created_at DATETIME(6) NOT NULL,
    PRIMARY KEY (user_id, id),
    UNIQUE KEY group_invitations_pair (group_id, user_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Groups a person refuses invitations from.
CREATE TABLE group_blocks (
    user_id    BIGINT      NOT NULL,
    group_id   BIGINT      NOT NULL,
    created_at DATETIME(6) NOT NULL,
    PRIMARY KEY (user_id, group_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
