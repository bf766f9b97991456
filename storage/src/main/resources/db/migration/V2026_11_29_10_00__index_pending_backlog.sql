-- Two lanes in the deferred-index queue, so a re-analysis backlog (every stored item queued at once by a
-- migration, as V2026_11_29_03_00 does) never delays what a writer has just written: a drain takes the
-- writers' rows (backlog = FALSE) first and fills its batch from the backlog, newest entity first.
-- The default is the backlog, so the rows queued before this and any migration's own INSERT ... SELECT
-- land there; a writer says FALSE, and moves an entity it rewrites out of the backlog.
ALTER TABLE index_pending
    ADD COLUMN backlog BOOLEAN NOT NULL DEFAULT TRUE,
    ADD KEY index_pending_by_lane (index_name, backlog, entity_id);
