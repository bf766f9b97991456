-- Issue 15, folders (Google Reader's labels) and a person's own title for a subscription. Append-only.

-- What a person calls a subscription for themselves; NULL: the source's own title.
ALTER TABLE subscriptions ADD COLUMN title VARCHAR(200) NULL;

-- A person's folders (sharded by user). name as the person wrote it (trimmed); name_key its
-- case-folded form (Folders.key), unique per person, so "News" and "NEWS" are one folder and a
-- Google Reader label user/-/label/<name> names exactly one. At most Folders.MAX_FOLDERS a person.
CREATE TABLE folders (
    user_id    BIGINT       NOT NULL,
    id         BIGINT       NOT NULL,
    name       VARCHAR(100) NOT NULL,
    name_key   VARCHAR(300) NOT NULL,
    created_at DATETIME(6)  NOT NULL,
    PRIMARY KEY (user_id, id),
    UNIQUE KEY folders_name (user_id, name_key)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Which of a person's subscriptions (named by source, as subscriptions are keyed) are filed in
-- which folder: many to many. Deleted with the folder, and with the subscription on unsubscribe.
-- folder_sources_source serves "the folders of a subscription" and the unsubscribe.
CREATE TABLE folder_sources (
    user_id   BIGINT NOT NULL,
    folder_id BIGINT NOT NULL,
    source_id BIGINT NOT NULL,
    PRIMARY KEY (user_id, folder_id, source_id),
    KEY folder_sources_source (user_id, source_id, folder_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
