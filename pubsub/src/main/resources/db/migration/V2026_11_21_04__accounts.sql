-- Accounts and personal access tokens. Append-only.
-- Accounts are entities (kind user); these are their index tables (IndexDefinition.createTableSql()).
CREATE TABLE account_usernames (
    username VARCHAR(30) NOT NULL,
    entity_id BIGINT NOT NULL,
    PRIMARY KEY (username),
    KEY account_usernames_entity (entity_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE account_feed_tokens (
    token_hash BINARY(16) NOT NULL,
    entity_id BIGINT NOT NULL,
    PRIMARY KEY (token_hash),
    KEY account_feed_tokens_entity (entity_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Personal access tokens: only the SHA-256 of the token is kept; revoking deletes the row.
-- Listed by user (the sharding key); looked up by hash on every request (cached per node).
CREATE TABLE personal_tokens (
    user_id    BIGINT       NOT NULL,
    id         BIGINT       NOT NULL,
    name       VARCHAR(100) NOT NULL,
    token_hash BINARY(32)   NOT NULL,
    scopes     VARCHAR(32)  NOT NULL,
    created_at DATETIME(6)  NOT NULL,
    PRIMARY KEY (user_id, id),
    UNIQUE KEY personal_tokens_hash (token_hash)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
