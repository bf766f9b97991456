package dev.tributary.api.item;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * An item's JSON rendered once for every reader, and one reader's flags put into it: the same
 * bytes Jackson writes for that reader's {@link ItemView}, without rendering the item again.
 */
public final class ItemJson {

    /** The end of an item's JSON with no {@code also_in}, not starred: {@code starred} is its last field. */
    private static final byte[] NO_ALSO_IN = "[],\"starred\":false}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] AFTER_ALSO_IN = ",\"starred\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] FALSE_END = "false}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] TRUE_END = "true}".getBytes(StandardCharsets.UTF_8);

    /** One item's JSON as unread and as read, both with no {@code also_in} and not starred. */
    public record Shared(byte[] unread, byte[] read) {
    }

    private ItemJson() {
    }

    /** Renders a view made for nobody in particular ({@link ItemViews#ofPublic}) as unread and as read. */
    public static Shared of(ItemView shared, JsonMapper json) {
        byte[] unread = json.writeValueAsBytes(shared.withRead(false).withStarred(false));
        if (!endsWithNoAlsoIn(unread)) {
            throw new IllegalStateException("an item's JSON must end with an empty also_in and its starred flag");
        }
        return new Shared(unread, json.writeValueAsBytes(shared.withRead(true).withStarred(false)));
    }

    /** Whether this item JSON ends as {@link #of} renders it: an empty {@code also_in}, not starred. */
    private static boolean endsWithNoAlsoIn(byte[] item) {
        return item.length >= NO_ALSO_IN.length
                && Arrays.equals(item, item.length - NO_ALSO_IN.length, item.length, NO_ALSO_IN, 0, NO_ALSO_IN.length);
    }

    /**
     * The reader's JSON of an item from its shared rendering ({@link Shared#read} or
     * {@link Shared#unread}): their {@code also_in} (its JSON array; null for none) and starred flag put in.
     */
    public static byte[] forReader(byte[] item, byte @Nullable [] alsoIn, boolean starred) {
        byte[] withCopies = alsoIn == null ? item : withAlsoIn(item, alsoIn);
        return starred ? starred(withCopies) : withCopies;
    }

    /** An item's JSON (ending {@code [],"starred":false}}) with the reader's {@code also_in} in place of the empty one. */
    public static byte[] withAlsoIn(byte[] item, byte[] alsoIn) {
        int keep = item.length - NO_ALSO_IN.length;
        byte[] joined = new byte[keep + alsoIn.length + AFTER_ALSO_IN.length + FALSE_END.length];
        System.arraycopy(item, 0, joined, 0, keep);
        System.arraycopy(alsoIn, 0, joined, keep, alsoIn.length);
        System.arraycopy(AFTER_ALSO_IN, 0, joined, keep + alsoIn.length, AFTER_ALSO_IN.length);
        System.arraycopy(FALSE_END, 0, joined, keep + alsoIn.length + AFTER_ALSO_IN.length, FALSE_END.length);
        return joined;
    }

    /** An item's JSON ending {@code "starred":false}} as starred. */
    private static byte[] starred(byte[] item) {
        int keep = item.length - FALSE_END.length;
        byte[] swapped = Arrays.copyOf(item, keep + TRUE_END.length);
        System.arraycopy(TRUE_END, 0, swapped, keep, TRUE_END.length);
        return swapped;
    }
}
