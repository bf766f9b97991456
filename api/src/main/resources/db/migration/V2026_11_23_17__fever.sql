-- A personal access token may also sign in Fever apps, which send md5("username:token") as
-- their api_key: the SHA-256 of that key, looked up on each Fever call (null: not for Fever).
ALTER TABLE personal_tokens
    ADD COLUMN fever_key_hash BINARY(32) NULL,
    ADD UNIQUE KEY personal_tokens_fever_key (fever_key_hash);
