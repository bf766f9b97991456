-- Who wrote a fetched full article, as the page says it (schema.org author, meta author,
-- Readability's "By ..." line or a rel="author" link), plain text of at most 200 characters;
-- NULL for failures, for pages that do not say, and for rows kept before this column.
ALTER TABLE item_articles ADD COLUMN byline VARCHAR(200) NULL AFTER title;
