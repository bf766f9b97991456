-- A Google Reader app's Auth value (issued by /accounts/ClientLogin): only its SHA-256 is kept.
-- It stands for what the app signed in with: a personal access token (token_id: revoking the
-- token ends it, as the lookup joins personal_tokens) or the account password (password_stamp,
-- a SHA-256 of the password hash it was issued under: a new password ends it).
CREATE TABLE reader_logins (
    auth_hash      BINARY(32)  NOT NULL,
    user_id        BIGINT      NOT NULL,
    token_id       BIGINT      NULL,
    password_stamp BINARY(32)  NULL,
    created_at     DATETIME(6) NOT NULL,
    PRIMARY KEY (auth_hash),
    KEY reader_logins_user (user_id, created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
