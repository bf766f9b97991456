package dev.tributary.crawler.fetch;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.jspecify.annotations.Nullable;

/**
 * Decodes gzip (RFC 1952, several members allowed) or HTTP "deflate", which servers send both as
 * zlib (RFC 1950, as the spec says) and as raw deflate (RFC 1951). Inflates straight into the
 * {@link BoundedBuffer}, at most one byte past its limit, so a bomb is stopped as soon as its
 * output passes the limit.
 */
final class InflatingDecoder implements BodyDecoder {

    private enum State { SNIFF, HEADER, BODY, TRAILER, MEMBER_END, DONE }

    private final boolean gzip;
    private final BoundedBuffer out;
    private final CRC32 crc = new CRC32();
    private final byte[] small = new byte[8];
    private @Nullable Inflater inflater;
    private @Nullable GzipHeader header;
    private State state;
    private int smallCount;
    private long memberSize;
    private boolean sawInput;
    private boolean laterMember;

    InflatingDecoder(boolean gzip, BoundedBuffer out) {
        this.gzip = gzip;
        this.out = out;
        this.state = gzip ? State.HEADER : State.SNIFF;
        this.header = gzip ? new GzipHeader() : null;
    }

    @Override
    public void write(ByteBuffer chunk) {
        sawInput |= chunk.hasRemaining();
        while (chunk.hasRemaining()) {
            switch (state) {
                case SNIFF -> sniff(chunk);
                case HEADER -> header(chunk);
                case BODY -> inflate(chunk);
                case TRAILER -> trailer(chunk);
                case MEMBER_END -> memberEnd(chunk);
                case DONE -> chunk.position(chunk.limit());
            }
        }
    }

    @Override
    public byte[] finish() {
        boolean complete = switch (state) {
            case MEMBER_END, DONE -> true;
            case HEADER -> laterMember || !sawInput;
            case SNIFF -> !sawInput;
            case BODY, TRAILER -> false;
        };
        if (!complete) {
            throw new FetchAbort(FailureReason.PROTOCOL, "compressed body is cut short");
        }
        return out.toByteArray();
    }

    @Override
    public void close() {
        if (inflater != null) {
            inflater.end();
        }
    }

    /** "deflate" is zlib when its first two bytes are a valid zlib header, else raw deflate. */
    private void sniff(ByteBuffer chunk) {
        small[smallCount++] = chunk.get();
        if (smallCount < 2) {
            return;
        }
        int cmf = small[0] & 0xff;
        int flg = small[1] & 0xff;
        boolean zlib = (cmf & 0x0f) == 8 && (cmf >>> 4) <= 7 && ((cmf << 8) | flg) % 31 == 0;
        inflater = new Inflater(!zlib);
        state = State.BODY;
        inflate(ByteBuffer.wrap(small, 0, 2));
    }

    private void header(ByteBuffer chunk) {
        boolean complete;
        try {
            complete = header.feed(chunk);
        } catch (FetchAbort notGzip) {
            if (!laterMember) {
                throw notGzip;
            }
            // Like GZIPInputStream: junk after a complete member is ignored.
            state = State.DONE;
            return;
        }
        if (complete) {
            if (inflater == null) {
                inflater = new Inflater(true);
            } else {
                inflater.reset();
            }
            crc.reset();
            memberSize = 0;
            state = State.BODY;
        }
    }

    private void inflate(ByteBuffer chunk) {
        Inflater inf = inflater;
        inf.setInput(chunk);
        while (true) {
            int room = out.reserve();
            int start = out.size();
            int n;
            try {
                n = inf.inflate(out.array(), start, room);
            } catch (DataFormatException e) {
                throw new FetchAbort(FailureReason.PROTOCOL, "compressed body is corrupt");
            }
            if (n > 0) {
                if (gzip) {
                    crc.update(out.array(), start, n);
                }
                memberSize += n;
                out.advance(n);
                continue;
            }
            if (inf.finished()) {
                smallCount = 0;
                state = gzip ? State.TRAILER : State.DONE;
                return;
            }
            if (inf.needsDictionary()) {
                throw new FetchAbort(FailureReason.PROTOCOL, "compressed body needs a preset dictionary");
            }
            if (inf.needsInput()) {
                return;
            }
            // zlib made no progress with input and room left: never loop on such a stream.
            throw new FetchAbort(FailureReason.PROTOCOL, "compressed body is corrupt");
        }
    }

    private void trailer(ByteBuffer chunk) {
        small[smallCount++] = chunk.get();
        if (smallCount < 8) {
            return;
        }
        long expectedCrc = littleEndian(0);
        long expectedSize = littleEndian(4);
        if (expectedCrc != crc.getValue() || expectedSize != (memberSize & 0xffffffffL)) {
            throw new FetchAbort(FailureReason.PROTOCOL, "compressed body is corrupt");
        }
        state = State.MEMBER_END;
    }

    private void memberEnd(ByteBuffer chunk) {
        if ((chunk.get(chunk.position()) & 0xff) == 0x1f) {
            header = new GzipHeader();
            laterMember = true;
            state = State.HEADER;
        } else {
            state = State.DONE;
        }
    }

    private long littleEndian(int offset) {
        return (small[offset] & 0xffL) | (small[offset + 1] & 0xffL) << 8 | (small[offset + 2] & 0xffL) << 16 | (small[offset + 3] & 0xffL) << 24;
    }
}
