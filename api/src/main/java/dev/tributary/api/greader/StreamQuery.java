package dev.tributary.api.greader;

import dev.tributary.api.web.ApiProblem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.util.MultiValueMap;

/**
 * What a stream call asks for: the stream ({@code s}, else the reading list), states or labels to
 * exclude ({@code xt}) and to require ({@code it}), how many ({@code n}), where to resume
 * ({@code c}), oldest first ({@code r=o}) and a window of storage times in seconds
 * ({@code ot}: not older, {@code nt}: not newer). Malformed values are a 400; an {@code n}
 * above the call's cap is lowered to it, as Google Reader did.
 */
record StreamQuery(
        StreamId stream,
        List<StreamId> exclude,
        List<StreamId> include,
        int n,
        @Nullable String continuation,
        boolean oldestFirst,
        @Nullable Instant oldest,
        @Nullable Instant newest) {

    private static final int MAX_STREAM_PARAMS = 10;

    static StreamQuery parse(@Nullable StreamId pathStream, MultiValueMap<String, String> params, int defaultN, int maxN) {
        StreamId stream = pathStream != null ? pathStream
                : params.getFirst("s") != null ? StreamId.parse("s", params.getFirst("s")) : new StreamId.ReadingList();
        return new StreamQuery(stream, streams("xt", params), streams("it", params),
                count(params.getFirst("n"), defaultN, maxN), continuation(params.getFirst("c")),
                "o".equals(params.getFirst("r")), seconds("ot", params.getFirst("ot"), false),
                seconds("nt", params.getFirst("nt"), true));
    }

    private static List<StreamId> streams(String name, MultiValueMap<String, String> params) {
        List<String> values = params.getOrDefault(name, List.of());
        if (values.size() > MAX_STREAM_PARAMS) {
            throw ApiProblem.invalid(name, "may be given at most " + MAX_STREAM_PARAMS + " times");
        }
        List<StreamId> streams = new ArrayList<>(values.size());
        values.forEach(value -> streams.add(StreamId.parse(name, value)));
        return streams;
    }

    private static int count(@Nullable String value, int defaultN, int maxN) {
        if (value == null || value.isBlank()) {
            return defaultN;
        }
        long n = number("n", value);
        if (n < 1) {
            throw ApiProblem.invalid("n", "must be a positive number, not " + value);
        }
        return (int) Math.min(n, maxN);
    }

    private static @Nullable String continuation(@Nullable String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String digits = value.startsWith("s") ? value.substring(1) : value;
        number("c", digits);
        return value;
    }

    private static @Nullable Instant seconds(String name, @Nullable String value, boolean endOfSecond) {
        if (value == null || value.isBlank()) {
            return null;
        }
        // Ids encode times up to a few decades ahead only: a day ahead already bounds nothing.
        long seconds = Math.min(number(name, value), Instant.now().plus(java.time.Duration.ofDays(1)).getEpochSecond());
        return Instant.ofEpochSecond(endOfSecond ? seconds + 1 : seconds);
    }

    static long number(String name, String value) {
        String digits = value.strip();
        if (digits.isEmpty() || digits.length() > 19 || !digits.chars().allMatch(Character::isDigit)) {
            throw ApiProblem.invalid(name, "must be a non-negative whole number, not '"
                    + (value.length() > 40 ? value.substring(0, 40) + "…" : value) + "'");
        }
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException tooLarge) {
            throw ApiProblem.invalid(name, "is too large");
        }
    }

    /** The resume point of an inbox walk: the last id of the previous page. */
    @Nullable Long inboxAfter() {
        return continuation == null || continuation.startsWith("s") ? null : Long.parseLong(continuation);
    }

    /** The resume point of a walk over stars: the star id of the last item of the previous page. */
    @Nullable Long starAfter() {
        return continuation != null && continuation.startsWith("s") ? Long.parseLong(continuation.substring(1)) : null;
    }
}
