-- Search's terms are now made by Lucene's analysis chain (ASCII folding, English stemming: WordAnalysis),
-- so the item_terms rows written before it hold unfolded, unstemmed words that a query no longer spells.
-- Every stored item is queued for the deferred index (index_pending), whose drain (DeferredIndexes) replaces
-- each queued item's rows with those of its body: the index is rebuilt in the background, oldest item
-- first, 500 items a transaction, while the app serves. Until an item's turn comes it is found by the words
-- its old rows hold that the new analysis leaves alike (most lower-case English words that no stemmer
-- changes, CJK and Thai pairs), not by a stemmed or folded form. Tombstones are queued too and get no rows.
INSERT IGNORE INTO index_pending (index_name, entity_id)
SELECT 'item_terms', id FROM entities WHERE kind = 'item';
