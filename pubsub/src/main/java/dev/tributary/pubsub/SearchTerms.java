package dev.tributary.pubsub;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The one normaliser of search text, for items and queries alike: NFKC, case fold, then words of
 * letters, digits and marks, each through Lucene's analysis chain ({@link WordAnalysis}: ASCII
 * folding, English stemming), and CJK (Han, Hiragana, Katakana, Hangul) as overlapping bigrams (a
 * lone CJK character as itself). Written without spaces, CJK has no words to split; bigrams find
 * any two-character substring, which is how most of its words are written, on MySQL and MariaDB
 * alike (MariaDB has no ngram parser). Thai, Lao, Khmer and Myanmar are written without spaces
 * between words too: they get the same pairs, of clusters (a letter with its marks) rather than
 * characters. Anything else (punctuation, symbols, emoji) separates.
 */
final class SearchTerms {

    /** Longest term kept: longer words are cut here, in items and queries the same way. */
    static final int MAX_TERM_CHARS = 32;
    /**
     * Distinct terms one item is indexed under (title first), bounding its index rows (each ~170
     * bytes with its key): a long article is found by its title and its first paragraphs.
     */
    static final int MAX_ITEM_TERMS = 100;
    /** Characters of an item's text read for terms; a long article is searchable by its beginning. */
    static final int MAX_TEXT_CHARS = 20_000;
    /** How much a title occurrence outweighs a summary one. */
    static final int TITLE_WEIGHT = 4;
    /** Occurrences of a term counted per field, so a repeated word cannot buy the top place. */
    private static final int MAX_COUNTED = 5;

    /** A media type's or tag's filter term: '#' never survives tokenising, so no word collides with one. */
    private static final String MEDIA_PREFIX = "#m:";
    private static final String TAG_PREFIX = "#t:";

    private static final Pattern ENTITY = Pattern.compile("&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});");

    private SearchTerms() {
    }

    /** The terms of {@code text} in order of first appearance, each once; at most {@code max}. */
    static List<String> of(String text, int max) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        collect(text, counts, max);
        return List.copyOf(counts.keySet());
    }

    /**
     * Every term of {@code text} in order, repeats included (at most {@code max}): adjacent words are
     * adjacent terms, and a CJK or Thai run's pairs follow one another, so a phrase is a run of them.
     */
    static List<String> sequence(String text, int max) {
        List<String> terms = new ArrayList<>();
        collect(text, new Sink() {
            @Override
            void take(String term) {
                if (terms.size() < max) {
                    terms.add(term);
                }
            }

            @Override
            boolean full() {
                return terms.size() >= max;
            }
        });
        return terms;
    }

    /** A prefix as the person typed it (one word before a '*'): folded as words are, not stemmed, cut to a term's width. */
    static String prefix(String word) {
        return cut(WordAnalysis.fold(fold(word)), MAX_TERM_CHARS);
    }

    /**
     * An item's index terms with their weights: title and summary (HTML stripped) words and bigrams,
     * a title occurrence worth {@link #TITLE_WEIGHT}, then its media type and tags as filter terms
     * (weight 0). A tombstone has none.
     */
    static Map<String, Integer> ofItem(Item item) {
        Map<String, Integer> weights = new LinkedHashMap<>();
        if (item.deleted()) {
            return weights;
        }
        weights.put(mediaTerm(item.mediaType()), 0);
        for (String tag : item.tags().stream().limit(10).toList()) {
            weights.putIfAbsent(tagTerm(tag), 0);
        }
        int filters = weights.size();
        Map<String, Integer> title = new LinkedHashMap<>();
        collect(item.title() == null ? "" : item.title(), title, MAX_ITEM_TERMS);
        Map<String, Integer> summary = new LinkedHashMap<>();
        collect(item.summary() == null ? "" : plainText(item.summary()), summary, MAX_ITEM_TERMS);
        title.forEach((term, n) -> weights.put(term, TITLE_WEIGHT * Math.min(n, MAX_COUNTED)));
        for (Map.Entry<String, Integer> e : summary.entrySet()) {
            if (weights.size() - filters >= MAX_ITEM_TERMS && !weights.containsKey(e.getKey())) {
                continue;
            }
            weights.merge(e.getKey(), Math.min(e.getValue(), MAX_COUNTED), Integer::sum);
        }
        return weights;
    }

    static String mediaTerm(MediaType type) {
        return MEDIA_PREFIX + type.wireName();
    }

    /** A tag's filter term: case-folded like words, cut to the column's width. */
    static String tagTerm(String tag) {
        String folded = fold(tag.length() > 200 ? tag.substring(0, 200) : tag);
        return TAG_PREFIX + cut(folded, MAX_TERM_CHARS);
    }

    /** Summaries are sanitised HTML: their text, without tags, scripts or styles, entities decoded. */
    static String plainText(String html) {
        String bounded = html.length() > 4 * MAX_TEXT_CHARS ? html.substring(0, 4 * MAX_TEXT_CHARS) : html;
        String text = withoutTags(withoutScripts(bounded));
        return ENTITY.matcher(text).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(entity(m.group(1))));
    }

    /**
     * Drops script and style elements in one pass (a regex with a lazy body would rescan the rest
     * of the text for every unclosed opener, quadratic on hostile input); an unclosed one runs to the end.
     */
    private static String withoutScripts(String html) {
        String lower = html.toLowerCase(Locale.ROOT);
        if (lower.length() != html.length()) {
            // Case mapping changed lengths (rare scripts): offsets would not line up, so keep the text.
            return html;
        }
        StringBuilder kept = new StringBuilder(html.length());
        int at = 0;
        while (at < html.length()) {
            int script = lower.indexOf("<script", at);
            int style = lower.indexOf("<style", at);
            int open = script < 0 ? style : style < 0 ? script : Math.min(script, style);
            if (open < 0) {
                break;
            }
            String close = open == script ? "</script" : "</style";
            kept.append(html, at, open).append(' ');
            int end = lower.indexOf(close, open);
            if (end < 0) {
                return kept.toString();
            }
            int gt = lower.indexOf('>', end);
            at = gt < 0 ? html.length() : gt + 1;
        }
        return kept.append(html, at, html.length()).toString();
    }

    /** Every tag replaced by a space, in one pass; an unclosed one runs to the end. */
    private static String withoutTags(String html) {
        StringBuilder text = new StringBuilder(html.length());
        int at = 0;
        while (at < html.length()) {
            int open = html.indexOf('<', at);
            if (open < 0) {
                break;
            }
            text.append(html, at, open).append(' ');
            int close = html.indexOf('>', open);
            if (close < 0) {
                return text.toString();
            }
            at = close + 1;
        }
        return text.append(html, at, html.length()).toString();
    }

    private static String entity(String name) {
        if (name.startsWith("#")) {
            boolean hex = name.charAt(1) == 'x' || name.charAt(1) == 'X';
            int cp = Integer.parseInt(name.substring(hex ? 2 : 1), hex ? 16 : 10);
            boolean surrogate = cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE;
            return cp > 0 && Character.isValidCodePoint(cp) && !surrogate ? Character.toString(cp) : " ";
        }
        return switch (name) {
            case "amp" -> "&";
            case "lt" -> "<";
            case "gt" -> ">";
            case "quot" -> "\"";
            case "apos" -> "'";
            default -> " ";
        };
    }

    /** Where the terms go as they are cut: counted (each once, at most so many) or kept in order. */
    private abstract static class Sink {
        abstract void take(String term);

        abstract boolean full();
    }

    private static void collect(String raw, Map<String, Integer> counts, int max) {
        collect(raw, new Sink() {
            @Override
            void take(String term) {
                add(term, counts, max);
            }

            @Override
            boolean full() {
                return counts.size() >= max;
            }
        });
    }

    private static void collect(String raw, Sink sink) {
        String text = fold(raw.length() > MAX_TEXT_CHARS ? raw.substring(0, MAX_TEXT_CHARS) : raw);
        StringBuilder word = new StringBuilder();
        Run run = new Run();
        int i = 0;
        while (i < text.length() && !sink.full()) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (isCjk(cp)) {
                flushWord(word, sink);
                run.append(cp, false, sink);
            } else if (isUnspaced(cp) || isMark(cp) && run.unspaced()) {
                flushWord(word, sink);
                run.append(cp, true, sink);
            } else if (Character.isLetterOrDigit(cp) || isMark(cp) && !word.isEmpty()) {
                run.flush(sink);
                if (word.codePointCount(0, word.length()) < MAX_TERM_CHARS) {
                    word.appendCodePoint(cp);
                }
            } else {
                flushWord(word, sink);
                run.flush(sink);
            }
        }
        flushWord(word, sink);
        run.flush(sink);
    }

    private static void flushWord(StringBuilder word, Sink sink) {
        if (!word.isEmpty()) {
            sink.take(cut(WordAnalysis.term(word.toString()), MAX_TERM_CHARS));
            word.setLength(0);
        }
    }

    /**
     * A run of text written without spaces between words, cut into overlapping pairs of units (a
     * lone unit as itself). A CJK unit is one character; a Thai, Lao, Khmer or Myanmar one is a
     * letter with the marks that follow it (vowel signs, tone marks) and, after a Khmer coeng or a
     * Myanmar virama, the subscript letter, so no pair starts inside a syllable's cluster.
     */
    private static final class Run {

        /** Code points kept of one cluster: real syllables have a few; two fit {@link #MAX_TERM_CHARS}. */
        private static final int MAX_CLUSTER = MAX_TERM_CHARS / 2;

        private final List<String> units = new ArrayList<>();
        private final StringBuilder unit = new StringBuilder();
        private boolean clustered;

        boolean unspaced() {
            return clustered && !unit.isEmpty();
        }

        void append(int cp, boolean cluster, Sink sink) {
            if (cluster != clustered) {
                flush(sink);
                clustered = cluster;
            }
            if (cluster && !unit.isEmpty() && (isMark(cp) || endsWithStacker())) {
                // A vowel sign, tone mark or stacker, or the letter stacked under one: the same cluster
                // (a pile of marks past MAX_CLUSTER is dropped, so a pair stays within a term's width).
                if (unit.codePointCount(0, unit.length()) < MAX_CLUSTER) {
                    unit.appendCodePoint(cp);
                }
                return;
            }
            if (isMark(cp)) {
                // A mark with no letter before it starts nothing.
                return;
            }
            endUnit();
            unit.appendCodePoint(cp);
        }

        private boolean endsWithStacker() {
            return isStacker(unit.codePointBefore(unit.length()));
        }

        private void endUnit() {
            if (!unit.isEmpty()) {
                units.add(unit.toString());
                unit.setLength(0);
            }
        }

        void flush(Sink sink) {
            endUnit();
            int n = units.size();
            if (n == 1) {
                sink.take(units.getFirst());
            }
            for (int k = 0; k + 1 < n; k++) {
                sink.take(units.get(k) + units.get(k + 1));
            }
            units.clear();
        }
    }

    private static void add(String term, Map<String, Integer> counts, int max) {
        if (counts.size() < max || counts.containsKey(term)) {
            counts.merge(term, 1, Integer::sum);
        }
    }

    /** NFKC, then lower case of the upper case: folds the cases {@code toLowerCase} alone leaves apart (e.g. 'ſ'). */
    static String fold(String text) {
        String nfkc = Normalizer.normalize(text, Normalizer.Form.NFKC);
        return nfkc.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
    }

    private static String cut(String text, int codePoints) {
        return text.codePointCount(0, text.length()) <= codePoints ? text
                : text.substring(0, text.offsetByCodePoints(0, codePoints));
    }

    private static boolean isMark(int cp) {
        int type = Character.getType(cp);
        return type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
                || type == Character.ENCLOSING_MARK;
    }

    /** Scripts written without spaces between words (Thai, Lao, Khmer, Myanmar): their letters and marks. */
    static boolean isUnspaced(int cp) {
        Character.UnicodeScript script = Character.UnicodeScript.of(cp);
        return (script == Character.UnicodeScript.THAI || script == Character.UnicodeScript.LAO
                || script == Character.UnicodeScript.KHMER || script == Character.UnicodeScript.MYANMAR)
                && (Character.isLetter(cp) || isMark(cp));
    }

    /** Khmer's coeng and Myanmar's virama: the letter after one is written under the one before, in the same cluster. */
    private static boolean isStacker(int cp) {
        return cp == 0x17D2 || cp == 0x1039;
    }

    static boolean isCjk(int cp) {
        Character.UnicodeScript script = Character.UnicodeScript.of(cp);
        if (cp == 0x30FC) {
            // The prolonged sound mark (コーヒー) is "common" script, but only ever written inside kana.
            return true;
        }
        return (script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA || script == Character.UnicodeScript.HANGUL)
                && Character.isLetter(cp);
    }
}
