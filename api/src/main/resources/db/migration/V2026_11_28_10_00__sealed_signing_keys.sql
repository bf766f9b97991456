-- Signing keys' private parts are no longer kept in clear (issue 52): jwk now holds the public JWK
-- and sealed the whole JWK encrypted (AES-256-GCM) with the key from TRIBUTARY_SECRET_KEY or the
-- key file, which is not in the database. Rows written before this are sealed by the first node
-- to start (SigningKeys); until then sealed is NULL and jwk still holds the private key.
-- activates_at: when a key starts signing. A rotation adds a key (name 'access-tokens/...') that
-- activates a few minutes later, once every node has read its public part.
ALTER TABLE signing_keys
    MODIFY name VARCHAR(200) NOT NULL,
    ADD COLUMN sealed       TEXT        NULL AFTER jwk,
    ADD COLUMN activates_at DATETIME(6) NULL AFTER created_at;
UPDATE signing_keys SET activates_at = created_at;
ALTER TABLE signing_keys MODIFY activates_at DATETIME(6) NOT NULL;
