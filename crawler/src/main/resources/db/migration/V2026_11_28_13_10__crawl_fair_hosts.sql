-- Issue 52: one person's slow feeds must not starve others' feeds on a shared host.
-- penalised: the feed's last fetch timed out or could not connect (a tar pit) and one person alone
-- reads it; claims take such feeds only after every other due feed, so that person's own slow
-- feeds wait behind others' healthy ones. A successful fetch or a new reader clears it.
-- crawl_due_fair: claims read the unpenalised due feeds by next_fetch_at without walking past
-- the penalised ones.
ALTER TABLE crawl_state
    ADD COLUMN penalised BOOLEAN NOT NULL DEFAULT FALSE,
    ADD KEY crawl_due_fair (penalised, next_fetch_at);
