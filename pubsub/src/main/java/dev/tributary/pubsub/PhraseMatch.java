package dev.tributary.pubsub;

import java.util.Collections;
import java.util.List;

/**
 * Whether an item holds a query's phrases: each phrase's terms adjacent and in order, within its
 * title or within the text of its summary, the text analysed as the index analyses it (so
 * "feed readers" holds the phrase "feed reader"). The index keeps no positions; this reads the
 * text of the few candidates that hold every term.
 */
final class PhraseMatch {

    /** Terms of one field read for a phrase, as far as the index reads it ({@link SearchTerms#MAX_TEXT_CHARS}). */
    private static final int MAX_FIELD_TERMS = SearchTerms.MAX_TEXT_CHARS;

    private PhraseMatch() {
    }

    /** True when every phrase stands whole in the item's title or summary. */
    static boolean holdsAll(Item item, List<List<String>> phrases) {
        if (phrases.isEmpty()) {
            return true;
        }
        List<String> title = SearchTerms.sequence(item.title() == null ? "" : item.title(), MAX_FIELD_TERMS);
        List<String> summary = null;
        for (List<String> phrase : phrases) {
            if (Collections.indexOfSubList(title, phrase) >= 0) {
                continue;
            }
            if (summary == null) {
                summary = SearchTerms.sequence(item.summary() == null ? "" : SearchTerms.plainText(item.summary()),
                        MAX_FIELD_TERMS);
            }
            if (Collections.indexOfSubList(summary, phrase) < 0) {
                return false;
            }
        }
        return true;
    }
}
