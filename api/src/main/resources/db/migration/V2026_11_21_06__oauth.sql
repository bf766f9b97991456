-- OAuth 2.1 for third-party apps. Append-only.
-- Spring Security's authorization server tables (its schema DDL adapted to MariaDB: DATETIME(6)
-- for instants, as TIMESTAMP stops in 2038; long lists as TEXT to stay under the row-size limit)
-- plus the indexes its look-ups and ours need, and the persisted token-signing key.

-- Registered apps. id = client_id (one name for one thing); the secret is a PasswordEncoder hash.
CREATE TABLE oauth2_registered_client (
    id                            VARCHAR(100)  NOT NULL,
    client_id                     VARCHAR(100)  NOT NULL,
    client_id_issued_at           DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    client_secret                 VARCHAR(200)  DEFAULT NULL,
    client_secret_expires_at      DATETIME(6)   DEFAULT NULL,
    client_name                   VARCHAR(200)  NOT NULL,
    client_authentication_methods VARCHAR(1000) NOT NULL,
    authorization_grant_types     VARCHAR(1000) NOT NULL,
    redirect_uris                 TEXT          DEFAULT NULL,
    post_logout_redirect_uris     TEXT          DEFAULT NULL,
    scopes                        VARCHAR(1000) NOT NULL,
    client_settings               TEXT          NOT NULL,
    token_settings                TEXT          NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY oauth2_registered_client_client_id (client_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- One row per grant (a person authorising an app once, then its refreshes). Tokens are looked up
-- by value on the token and revocation endpoints: prefix indexes keep those from scanning.
CREATE TABLE oauth2_authorization (
    id                            VARCHAR(100)  NOT NULL,
    registered_client_id          VARCHAR(100)  NOT NULL,
    principal_name                VARCHAR(200)  NOT NULL,
    authorization_grant_type      VARCHAR(100)  NOT NULL,
    authorized_scopes             VARCHAR(1000) DEFAULT NULL,
    attributes                    BLOB          DEFAULT NULL,
    state                         VARCHAR(500)  DEFAULT NULL,
    authorization_code_value      BLOB          DEFAULT NULL,
    authorization_code_issued_at  DATETIME(6)   DEFAULT NULL,
    authorization_code_expires_at DATETIME(6)   DEFAULT NULL,
    authorization_code_metadata   BLOB          DEFAULT NULL,
    access_token_value            BLOB          DEFAULT NULL,
    access_token_issued_at        DATETIME(6)   DEFAULT NULL,
    access_token_expires_at       DATETIME(6)   DEFAULT NULL,
    access_token_metadata         BLOB          DEFAULT NULL,
    access_token_type             VARCHAR(100)  DEFAULT NULL,
    access_token_scopes           VARCHAR(1000) DEFAULT NULL,
    oidc_id_token_value           BLOB          DEFAULT NULL,
    oidc_id_token_issued_at       DATETIME(6)   DEFAULT NULL,
    oidc_id_token_expires_at      DATETIME(6)   DEFAULT NULL,
    oidc_id_token_metadata        BLOB          DEFAULT NULL,
    refresh_token_value           BLOB          DEFAULT NULL,
    refresh_token_issued_at       DATETIME(6)   DEFAULT NULL,
    refresh_token_expires_at      DATETIME(6)   DEFAULT NULL,
    refresh_token_metadata        BLOB          DEFAULT NULL,
    user_code_value               BLOB          DEFAULT NULL,
    user_code_issued_at           DATETIME(6)   DEFAULT NULL,
    user_code_expires_at          DATETIME(6)   DEFAULT NULL,
    user_code_metadata            BLOB          DEFAULT NULL,
    device_code_value             BLOB          DEFAULT NULL,
    device_code_issued_at         DATETIME(6)   DEFAULT NULL,
    device_code_expires_at        DATETIME(6)   DEFAULT NULL,
    device_code_metadata          BLOB          DEFAULT NULL,
    PRIMARY KEY (id),
    KEY oauth2_authorization_principal (principal_name, registered_client_id),
    KEY oauth2_authorization_state (state(64)),
    KEY oauth2_authorization_code (authorization_code_value(64)),
    -- A JWT's first ~100 characters are its header, the same for every token: index past it.
    KEY oauth2_authorization_access (access_token_value(400)),
    KEY oauth2_authorization_refresh (refresh_token_value(64))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- What a person has allowed an app (authorities: SCOPE_read,SCOPE_write); authorised_at is ours
-- (Spring's service names its columns, so it fills in by default) for the authorised-apps list.
CREATE TABLE oauth2_authorization_consent (
    registered_client_id VARCHAR(100)  NOT NULL,
    principal_name       VARCHAR(200)  NOT NULL,
    authorities          VARCHAR(1000) NOT NULL,
    authorised_at        DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    PRIMARY KEY (registered_client_id, principal_name),
    KEY oauth2_authorization_consent_principal (principal_name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Keys that sign access tokens, as JWK JSON (private part included), so tokens outlive a
-- restart and every node signs and verifies with the same key. The first node to start inserts
-- one (INSERT IGNORE), every node then reads back whichever won.
CREATE TABLE signing_keys (
    name       VARCHAR(64) NOT NULL,
    jwk        TEXT        NOT NULL,
    created_at DATETIME(6) NOT NULL,
    PRIMARY KEY (name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
