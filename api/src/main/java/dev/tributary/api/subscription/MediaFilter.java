package dev.tributary.api.subscription;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.pubsub.MediaType;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** A subscription's media filter as the API spells it: a list of media type names, or null for all. */
final class MediaFilter {

    private static final String NAMES = Arrays.stream(MediaType.values()).map(MediaType::wireName)
            .collect(Collectors.joining(", "));

    private MediaFilter() {
    }

    /** The types named; null (no filter) when the list is absent. An unknown or missing name is a 400. */
    static @Nullable Set<MediaType> parse(@Nullable List<String> names) {
        if (names == null) {
            return null;
        }
        Set<MediaType> types = EnumSet.noneOf(MediaType.class);
        for (String name : names) {
            types.add(MediaType.parse(name == null ? "" : name)
                    .orElseThrow(() -> ApiProblem.invalid("media", "must list only " + NAMES)));
        }
        return types;
    }

    /** The wire form of a subscription's filter: names in a fixed order, or null for all. */
    static @Nullable List<String> names(@Nullable Set<MediaType> types) {
        if (types == null) {
            return null;
        }
        return types.stream().sorted().map(MediaType::wireName).toList();
    }
}
