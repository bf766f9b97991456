-- Issue 50: a row is marked in doubt before it is sent, so that whoever tries it again (this
-- node after a broken session, or another after the lease moved) knows the server may already
-- have it: a publish in doubt is checked against the node's item before it is sent again.
ALTER TABLE xmpp_outbox ADD COLUMN in_doubt BOOLEAN NOT NULL DEFAULT FALSE;
