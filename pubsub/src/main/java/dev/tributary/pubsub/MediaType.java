package dev.tributary.pubsub;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** What an item mainly carries; timelines and subscriptions filter on it. */
public enum MediaType {
    TEXT(1), LINK(2), IMAGE(4), VIDEO(8), AUDIO(16);

    /** A mask that lets every media type through. */
    public static final int ALL = 31;

    /** {@link #values()} copies its array on every call; counter parsing looks a type up per hash field. */
    private static final MediaType[] ALL_TYPES = values();

    private final int bit;

    MediaType(int bit) {
        this.bit = bit;
    }

    /** The bit of this type in a media mask; also its stored code in the inbox. */
    public int bit() {
        return bit;
    }

    /** The lower-case name the API and the Redis counters use. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<MediaType> parse(String name) {
        for (MediaType type : values()) {
            if (type.wireName().equals(name)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    public static MediaType ofBit(int bit) {
        for (MediaType type : ALL_TYPES) {
            if (type.bit == bit) {
                return type;
            }
        }
        throw new IllegalArgumentException("no media type has bit " + bit);
    }

    /** The mask of {@code types}; null or empty means every type. */
    public static int maskOf(Collection<MediaType> types) {
        if (types == null || types.isEmpty()) {
            return ALL;
        }
        int mask = 0;
        for (MediaType type : types) {
            mask |= type.bit;
        }
        return mask;
    }

    /** The types in {@code mask}; null for {@link #ALL} (no filter). */
    public static Set<MediaType> ofMask(int mask) {
        if ((mask & ALL) == ALL) {
            return null;
        }
        Set<MediaType> types = EnumSet.noneOf(MediaType.class);
        for (MediaType type : values()) {
            if ((mask & type.bit) != 0) {
                types.add(type);
            }
        }
        return types;
    }
}
