-- Issue 50, XMPP publish-subscribe push. Append-only.

-- What is to be published to the XMPP server: written in the same transaction as the item,
-- the tombstone, the inbox entry or the membership change it stands for (an outbox), and
-- deleted once the server acknowledged it. kind: 'publish' / 'retract' (an item on its
-- source's public node), 'notify' (an inbox entry to a person's linked address, link_id
-- names the link it was written for, so unlinking stops it), 'members' (a closed group's
-- whitelist is set again from its membership; source_id is the group's source), 'code' (a
-- verification code, in payload, until it is sent). due_at orders the retries of one row.
CREATE TABLE xmpp_outbox (
    id         BIGINT       NOT NULL,
    kind       VARCHAR(16)  NOT NULL,
    item_id    BIGINT       NOT NULL,
    source_id  BIGINT       NOT NULL,
    user_id    BIGINT       NOT NULL,
    link_id    BIGINT       NOT NULL,
    payload    VARCHAR(64)  NULL,
    attempts   INT          NOT NULL DEFAULT 0,
    due_at     DATETIME(6)  NOT NULL,
    created_at DATETIME(6)  NOT NULL,
    PRIMARY KEY (id),
    KEY xmpp_outbox_due (due_at, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Which node publishes the outbox: one row, held under a lease (the database's clock).
CREATE TABLE xmpp_publisher_lease (
    name        VARCHAR(16)  NOT NULL,
    owner       VARCHAR(100) NULL,
    lease_until DATETIME(6)  NOT NULL,
    PRIMARY KEY (name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
INSERT INTO xmpp_publisher_lease (name, owner, lease_until) VALUES ('xmpp', NULL, '2000-01-01 00:00:00');

-- A person's linked XMPP address (one per person, sharded by user). address is the bare JID as
-- normalised; verified_address is set to it once the code came back, and is unique: an address
-- proved by one account cannot receive another's. code_hash is SHA-256 of the code sent;
-- failed_attempts counts wrong codes against it. deliver: 'home', 'folder' (folder_id) or 'starred'.
CREATE TABLE xmpp_links (
    user_id          BIGINT        NOT NULL,
    id               BIGINT        NOT NULL,
    address          VARCHAR(500)  NOT NULL,
    verified_address VARCHAR(500)  NULL,
    code_hash        VARBINARY(32) NULL,
    code_expires_at  DATETIME(6)   NULL,
    failed_attempts  INT           NOT NULL DEFAULT 0,
    deliver          VARCHAR(16)   NOT NULL DEFAULT 'home',
    folder_id        BIGINT        NULL,
    created_at       DATETIME(6)   NOT NULL,
    verified_at      DATETIME(6)   NULL,
    PRIMARY KEY (user_id),
    UNIQUE KEY xmpp_links_verified (verified_address)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
