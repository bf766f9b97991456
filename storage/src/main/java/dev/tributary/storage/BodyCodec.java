package dev.tributary.storage;

import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns bodies into the bytes of entities.body and back. The first byte says how the rest is
 * encoded, so the format can change without rewriting old rows:
 * {@code 0} = JSON as is (tiny bodies, where deflate only adds bytes), {@code 1} = zlib-deflated JSON
 * (zlib rather than raw deflate: its Adler-32 trailer catches a damaged body).
 */
final class BodyCodec {

    static final byte RAW_JSON = 0;
    static final byte DEFLATE_JSON = 1;
    /**
     * Bound on what a damaged or hostile row may inflate to. Fixed rather than max-body-bytes, so
     * that lowering the setting never makes rows written under the old one unreadable.
     */
    static final int MAX_INFLATED_BYTES = 16 * 1024 * 1024;

    private final JsonMapper json;
    // zlib streams are native allocations (~300 KB for a deflater): creating one per body cost
    // more than the JSON work itself, so a few are kept and reset between uses.
    private final ZlibPool<Deflater> deflaters = new ZlibPool<>(() -> new Deflater(Deflater.BEST_SPEED), Deflater::reset, Deflater::end);
    private final ZlibPool<Inflater> inflaters = new ZlibPool<>(Inflater::new, Inflater::reset, Inflater::end);
    private final int compressionThreshold;
    private final int maxBodyBytes;

    BodyCodec(int compressionThreshold, int maxBodyBytes) {
        // A mapper of our own, not the application's: a web-facing customisation (naming
        // strategy, date format) must never change what is already on disk.
        this.json = JsonMapper.builder()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES) // a field dropped from a record must not make old rows unreadable
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
        this.compressionThreshold = compressionThreshold;
        this.maxBodyBytes = maxBodyBytes;
    }

    BodyCodec(StorageSettings settings) {
        this(settings.compressionThreshold(), settings.maxBodyBytes());
    }

    byte[] encode(long id, Object body) {
        byte[] text;
        try {
            text = json.writeValueAsBytes(body);
        } catch (JacksonException e) {
            throw new StorageException("entity " + id + " body of type " + body.getClass().getName()
                    + " cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
        if (text.length > maxBodyBytes) {
            throw new BodyTooLargeException(id, text.length, maxBodyBytes);
        }
        if (text.length < compressionThreshold) {
            return tagged(RAW_JSON, text, text.length);
        }
        Deflater deflater = deflaters.take();
        try {
            deflater.setInput(text);
            deflater.finish();
            byte[] out = new byte[text.length + 64];
            out[0] = DEFLATE_JSON;
            int length = 1;
            while (!deflater.finished()) {
                if (length == out.length) {
                    out = Arrays.copyOf(out, out.length * 2);
                }
                length += deflater.deflate(out, length, out.length - length);
            }
            return Arrays.copyOf(out, length);
        } finally {
            deflaters.give(deflater);
        }
    }

    <T> T decode(long id, byte[] stored, Class<T> type) {
        if (stored == null || stored.length == 0) {
            throw new CorruptEntityException(id, "empty body", null);
        }
        byte[] text = switch (stored[0]) {
            case RAW_JSON -> Arrays.copyOfRange(stored, 1, stored.length);
            case DEFLATE_JSON -> inflate(id, stored);
            default -> throw new CorruptEntityException(id, "unknown body format tag " + stored[0], null);
        };
        try {
            T body = json.readValue(text, type);
            if (body == null) {
                throw new CorruptEntityException(id, "body is JSON null", null);
            }
            return body;
        } catch (JacksonException e) {
            throw new CorruptEntityException(id, "not a " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    private byte[] inflate(long id, byte[] stored) {
        Inflater inflater = inflaters.take();
        try {
            inflater.setInput(stored, 1, stored.length - 1);
            // JSON deflates about 2-4x: start there and grow, so a page of bodies costs one array each.
            byte[] out = new byte[Math.min(Math.max(stored.length * 4, 256), MAX_INFLATED_BYTES)];
            int length = 0;
            while (!inflater.finished()) {
                if (length == out.length) {
                    if (out.length == MAX_INFLATED_BYTES) {
                        throw new CorruptEntityException(id, "inflates past " + MAX_INFLATED_BYTES + " bytes", null);
                    }
                    out = Arrays.copyOf(out, (int) Math.min((long) out.length * 2, MAX_INFLATED_BYTES));
                }
                int n = inflater.inflate(out, length, out.length - length);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new CorruptEntityException(id, "deflate stream is truncated", null);
                }
                length += n;
            }
            if (inflater.getRemaining() > 0) {
                throw new CorruptEntityException(id, inflater.getRemaining() + " bytes after the deflate stream", null);
            }
            return length == out.length ? out : Arrays.copyOf(out, length);
        } catch (DataFormatException e) {
            throw new CorruptEntityException(id, "bad deflate data: " + e.getMessage(), e);
        } finally {
            inflaters.give(inflater);
        }
    }

    private static byte[] tagged(byte tag, byte[] data, int length) {
        byte[] out = new byte[length + 1];
        out[0] = tag;
        System.arraycopy(data, 0, out, 1, length);
        return out;
    }

    /** A bounded stock of reusable zlib streams; any thread takes one, beyond the stock they are made and ended. */
    private static final class ZlibPool<Z> {

        private static final int STOCK = 2 * Runtime.getRuntime().availableProcessors();

        private final BlockingQueue<Z> idle = new ArrayBlockingQueue<>(STOCK);
        private final Supplier<Z> factory;
        private final Consumer<Z> reset;
        private final Consumer<Z> end;

        ZlibPool(Supplier<Z> factory, Consumer<Z> reset, Consumer<Z> end) {
            this.factory = factory;
            this.reset = reset;
            this.end = end;
        }

        Z take() {
            Z stream = idle.poll();
            return stream != null ? stream : factory.get();
        }

        void give(Z stream) {
            reset.accept(stream);
            if (!idle.offer(stream)) {
                end.accept(stream);
            }
        }
    }
}
