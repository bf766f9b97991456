-- An Auth value issued for a password ends after 30 days unused (issue 52): last_used_at is when it
-- was last presented (kept to the hour: ReaderLogins writes it at most hourly per value).
ALTER TABLE reader_logins ADD COLUMN last_used_at DATETIME(6) NULL;
UPDATE reader_logins SET last_used_at = created_at;
ALTER TABLE reader_logins MODIFY last_used_at DATETIME(6) NOT NULL;
