package dev.tributary.crawler.fetch;

import java.nio.ByteBuffer;

/**
 * Reads one gzip member header (RFC 1952 2.3) from chunks as they arrive, so the deflate data
 * after it can go to an {@link java.util.zip.Inflater} without waiting for the whole body.
 */
final class GzipHeader {

    private static final int FHCRC = 0x02;
    private static final int FEXTRA = 0x04;
    private static final int FNAME = 0x08;
    private static final int FCOMMENT = 0x10;
    private static final int RESERVED = 0xe0;
    /** File names and comments are unbounded in the format; a real one is far below this. */
    private static final int MAX_HEADER = 64 * 1024 + 10;

    private enum Field { FIXED, EXTRA_LENGTH, EXTRA, NAME, COMMENT, HEADER_CRC, DONE }

    private Field field = Field.FIXED;
    private int flags;
    private int position;
    private int remaining = 10;
    private int extraLength;
    private int total;

    /**
     * Consumes header bytes from {@code in}, leaving whatever follows the header in it.
     *
     * @return true once the header is complete
     * @throws FetchAbort (PROTOCOL) when the bytes are not a gzip header
     */
    boolean feed(ByteBuffer in) {
        while (field != Field.DONE && in.hasRemaining()) {
            int b = in.get() & 0xff;
            if (++total > MAX_HEADER) {
                throw corrupt();
            }
            switch (field) {
                case FIXED -> fixed(b);
                case EXTRA_LENGTH -> {
                    extraLength |= b << (8 * (2 - remaining));
                    if (--remaining == 0) {
                        remaining = extraLength;
                        field = extraLength == 0 ? next(Field.EXTRA) : Field.EXTRA;
                    }
                }
                case EXTRA -> {
                    if (--remaining == 0) {
                        field = next(Field.EXTRA);
                    }
                }
                case NAME -> {
                    if (b == 0) {
                        field = next(Field.NAME);
                    }
                }
                case COMMENT -> {
                    if (b == 0) {
                        field = next(Field.COMMENT);
                    }
                }
                case HEADER_CRC -> {
                    if (--remaining == 0) {
                        field = Field.DONE;
                    }
                }
                case DONE -> throw new IllegalStateException();
            }
        }
        return field == Field.DONE;
    }

    private void fixed(int b) {
        switch (position++) {
            case 0 -> check(b == 0x1f);
            case 1 -> check(b == 0x8b);
            case 2 -> check(b == 8);
            case 3 -> {
                check((b & RESERVED) == 0);
                flags = b;
            }
            default -> {
            }
        }
        if (--remaining == 0) {
            remaining = 2;
            field = (flags & FEXTRA) != 0 ? Field.EXTRA_LENGTH : next(Field.EXTRA);
        }
    }

    /** The optional field after {@code done}, skipping those the flags say are absent. */
    private Field next(Field done) {
        if (done.ordinal() < Field.NAME.ordinal() && (flags & FNAME) != 0) {
            return Field.NAME;
        }
        if (done.ordinal() < Field.COMMENT.ordinal() && (flags & FCOMMENT) != 0) {
            return Field.COMMENT;
        }
        if ((flags & FHCRC) != 0) {
            remaining = 2;
            return Field.HEADER_CRC;
        }
        return Field.DONE;
    }

    private static void check(boolean ok) {
        if (!ok) {
            throw corrupt();
        }
    }

    private static FetchAbort corrupt() {
        return new FetchAbort(FailureReason.PROTOCOL, "body is not valid gzip");
    }
}
