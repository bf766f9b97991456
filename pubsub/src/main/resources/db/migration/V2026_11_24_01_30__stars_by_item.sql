-- Issue 17, purging a retired feed's items. Append-only.
-- Whether anyone starred an item (a starred item is kept when its retired feed's items are
-- purged). stars is keyed by person; this lookup by item is for that background job only.
ALTER TABLE stars ADD KEY stars_item (item_id);
