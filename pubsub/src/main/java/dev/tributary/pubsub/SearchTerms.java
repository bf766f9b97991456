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
 * letters, digits and marks, and CJK (Han, Hiragana, Katakana, Hangul) as overlapping bigrams (a
 * lone CJK character as itself). Written without spaces, CJK has no words to split; bigrams find
 * any two-character substring, which is how most of its words are written, on MySQL and MariaDB
 * alike (MariaDB has no ngram parser). Anything else (punctuation, symbols, emoji) separates.
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

    private static void collect(String raw, Map<String, Integer> counts, int max) {
        String text = fold(raw.length() > MAX_TEXT_CHARS ? raw.substring(0, MAX_TEXT_CHARS) : raw);
        StringBuilder word = new StringBuilder();
        List<Integer> cjk = new ArrayList<>();
        int i = 0;
        while (i < text.length() && counts.size() < max) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (isCjk(cp)) {
                flushWord(word, counts, max);
                cjk.add(cp);
            } else if (Character.isLetterOrDigit(cp) || isMark(cp) && !word.isEmpty()) {
                flushCjk(cjk, counts, max);
                if (word.codePointCount(0, word.length()) < MAX_TERM_CHARS) {
                    word.appendCodePoint(cp);
                }
            } else {
                flushWord(word, counts, max);
                flushCjk(cjk, counts, max);
            }
        }
        flushWord(word, counts, max);
        flushCjk(cjk, counts, max);
    }

    private static void flushWord(StringBuilder word, Map<String, Integer> counts, int max) {
        if (!word.isEmpty()) {
            add(word.toString(), counts, max);
            word.setLength(0);
        }
    }

    private static void flushCjk(List<Integer> run, Map<String, Integer> counts, int max) {
        int n = run.size();
        if (n == 1) {
            add(Character.toString(run.getFirst()), counts, max);
        }
        for (int k = 0; k + 1 < n; k++) {
            add(bigram(run, k), counts, max);
        }
        run.clear();
    }

    private static String bigram(List<Integer> run, int k) {
        return Character.toString(run.get(k)) + Character.toString(run.get(k + 1));
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
