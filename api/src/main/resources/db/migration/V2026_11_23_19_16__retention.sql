-- Retention of OAuth rows (issue 17). Append-only.
-- created_at: when a grant was first saved (Spring's service names its columns, so the default
-- fills in), so that one that never got a token (a consent page left open) can age out too.
-- oauth2_authorization_client: the unused-apps sweep asks whether an app has any grant left.
ALTER TABLE oauth2_authorization
    ADD COLUMN created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    ADD KEY oauth2_authorization_client (registered_client_id);
