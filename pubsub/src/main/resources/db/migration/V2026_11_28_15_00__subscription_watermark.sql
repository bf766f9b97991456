-- Issue 45: a subscriber receives by fan-out only what is published after it subscribed; what
-- was published before reaches it by the back-fill alone (the newest of the feed's document).
-- published_seq counts a source's publishes, moved under its source_audiences row lock (which
-- the subscribing transaction takes too); each delivery task carries the count of its publish,
-- each subscriber the count it subscribed at. 0: from before this was recorded (delivered as before).
ALTER TABLE source_audiences ADD COLUMN published_seq BIGINT NOT NULL DEFAULT 0;
ALTER TABLE subscribers ADD COLUMN from_seq BIGINT NOT NULL DEFAULT 0;
ALTER TABLE fanout_tasks ADD COLUMN source_seq BIGINT NOT NULL DEFAULT 0;
