package dev.tributary.api.timeline;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A page's JSON array as the rendered items it is made of, written to the response part by part
 * ({@link PageJsonConverter}): joining a 65 KB page into one array first cost a copy and its
 * allocation on every poll, 15 % of the home page's own work in a profile.
 */
final class PageJson {

    /** What ends a starred item's JSON ({@code starred} is its last field; {@link dev.tributary.api.item.ItemJson} renders it false). */
    private static final byte[] STARRED_END = "true}".getBytes(StandardCharsets.UTF_8);
    private static final int FALSE_END = "false}".length();

    private final byte[][] items;
    private final boolean[] starred;
    private final boolean array;
    private final int length;

    private PageJson(byte[][] items, boolean[] starred, boolean array) {
        this.items = items;
        this.starred = starred;
        this.array = array;
        int size = array ? 2 + Math.max(0, items.length - 1) : 0;
        for (int i = 0; i < items.length; i++) {
            // "false}" becomes "true}": one byte shorter.
            size += starred[i] ? items[i].length - 1 : items[i].length;
        }
        this.length = size;
    }

    /** An array of these items' JSON, each ending in {@code "starred":false}, which is written true where {@code starred} says so. */
    static PageJson ofItems(byte[][] items, boolean[] starred) {
        if (items.length != starred.length) {
            throw new IllegalArgumentException("one starred flag per item");
        }
        return new PageJson(items, starred, true);
    }

    /** A page already written whole. */
    static PageJson of(byte[] whole) {
        return new PageJson(new byte[][] {whole}, new boolean[1], false);
    }

    /** Its length in bytes. */
    int length() {
        return length;
    }

    void writeTo(OutputStream out) throws IOException {
        if (array) {
            out.write('[');
        }
        for (int i = 0; i < items.length; i++) {
            if (i > 0) {
                out.write(',');
            }
            if (starred[i]) {
                out.write(items[i], 0, items[i].length - FALSE_END);
                out.write(STARRED_END);
            } else {
                out.write(items[i]);
            }
        }
        if (array) {
            out.write(']');
        }
    }

    /** The whole JSON in one array (for tests). */
    byte[] bytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(length);
        try {
            writeTo(out);
        } catch (IOException impossible) {
            throw new IllegalStateException(impossible);
        }
        return out.toByteArray();
    }
}
