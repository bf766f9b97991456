-- Grants' codes, access tokens and refresh tokens are kept as 'sha256:' and the SHA-256 hex of their
-- value (HashedTokensAuthorizationService), no longer in clear (issue 52). Rows from before are
-- hashed here, so the tokens apps hold keep working: a presented value is hashed to be looked up.
UPDATE oauth2_authorization SET authorization_code_value = CONCAT('sha256:', SHA2(authorization_code_value, 256))
WHERE authorization_code_value IS NOT NULL AND authorization_code_value NOT LIKE 'sha256:%';
UPDATE oauth2_authorization SET access_token_value = CONCAT('sha256:', SHA2(access_token_value, 256))
WHERE access_token_value IS NOT NULL AND access_token_value NOT LIKE 'sha256:%';
UPDATE oauth2_authorization SET refresh_token_value = CONCAT('sha256:', SHA2(refresh_token_value, 256))
WHERE refresh_token_value IS NOT NULL AND refresh_token_value NOT LIKE 'sha256:%';
-- A hash is 71 characters: the access token's index no longer needs to reach past a JWT's header.
ALTER TABLE oauth2_authorization
    DROP KEY oauth2_authorization_access,
    ADD KEY oauth2_authorization_access (access_token_value(71));
