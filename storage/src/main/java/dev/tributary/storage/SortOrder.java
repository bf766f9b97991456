package dev.tributary.storage;

/** Direction of a range query over an index's last column: DESCENDING is "newest first" for time-ordered ids. */
public enum SortOrder {
    ASCENDING,
    DESCENDING
}
