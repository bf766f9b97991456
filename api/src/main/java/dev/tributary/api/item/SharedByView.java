package dev.tributary.api.item;

import java.util.List;

/** The people who posted an item's link: {@code count} of them, the newest ten listed. */
public record SharedByView(int count, List<PersonRef> people) {

    public SharedByView {
        people = List.copyOf(people);
    }

    /** A person as embedded in an item: {@code {id, username}}. */
    public record PersonRef(String id, String username) {
    }
}
