package dev.tributary.storage;

/**
 * The closed set of SQL types an index key column may have. {@link Hash} stores the first 16
 * bytes of the SHA-256 of a string key, for keys too long to index directly (URLs, guids).
 */
public sealed interface ColumnType {

    ColumnType BIGINT = new Bigint();
    ColumnType HASH = new Hash();

    static ColumnType varchar(int length) {
        return new Varchar(length);
    }

    /** The column's type as written in DDL. */
    String sql();

    /** Upper bound of the bytes this column adds to an InnoDB key (utf8mb4 is 4 bytes a character). */
    int maxKeyBytes();

    /** A signed 64-bit integer; the only type a range query may bound. */
    record Bigint() implements ColumnType {
        @Override
        public String sql() {
            return "BIGINT NOT NULL";
        }

        @Override
        public int maxKeyBytes() {
            return 8;
        }
    }

    /** A string compared byte for byte (binary collation), so that lookups mean exactly equal. */
    record Varchar(int length) implements ColumnType {
        public Varchar {
            // 255 keeps even a three-column key under InnoDB's 3072-byte limit with utf8mb4.
            if (length < 1 || length > 255) {
                throw new IllegalArgumentException("VARCHAR index columns take 1..255 characters, not " + length);
            }
        }

        @Override
        public String sql() {
            return "VARCHAR(" + length + ") CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL";
        }

        @Override
        public int maxKeyBytes() {
            return 4 * length + 2;
        }
    }

    /** 16 bytes of SHA-256 of the key's UTF-8; the key value given is the string itself. */
    record Hash() implements ColumnType {
        @Override
        public String sql() {
            return "BINARY(16) NOT NULL";
        }

        @Override
        public int maxKeyBytes() {
            return 16;
        }
    }
}
