package dev.tributary.pubsub;

import java.util.regex.Matcher;

/**
 * An upper bound of the number of instructions RE2J compiles an RE2 pattern to, read from the
 * pattern's structure: RE2J's own program size is not public, and it is what a match costs (each
 * character of the text steps at most every instruction once). It follows RE2's compiler: one
 * instruction per literal character, character class, {@code .}, anchor or assertion; a capture
 * adds two, {@code *}, {@code +}, {@code ?} and each alternative past the first one; {@code x{n,m}}
 * is unrolled into {@code n} copies of {@code x} and {@code m - n} optional ones. So
 * {@code (a|b|…|z){1000}} is about 53,000 however RE2J simplifies it, and an alternation repeated
 * counts its width times its count. Over-counting is safe (a pattern is refused sooner); the
 * pattern is compiled by RE2J as well, which catches what this reading lets through as syntax.
 */
final class RegexSize {

    /** Past this the size is reported as this: sizes only ever meet a bound far below it. */
    private static final long SATURATED = 1L << 40;
    private static final java.util.regex.Pattern REPEAT = java.util.regex.Pattern.compile("\\{(\\d{1,9})(,(\\d{0,9}))?\\}");

    private final String pattern;
    private int at;

    private RegexSize(String pattern) {
        this.pattern = pattern;
    }

    /** The estimated program size of {@code pattern}, the final match instruction included. */
    static long of(String pattern) {
        RegexSize reader = new RegexSize(pattern);
        long size = reader.alternation();
        // A stray ')' ends the outer alternation early: the rest is read as another one (RE2J refuses it anyway).
        while (reader.at < pattern.length()) {
            reader.at++;
            size = add(size, reader.alternation());
        }
        return add(size, 2);
    }

    /** Branches separated by {@code |}, up to a {@code )} or the end. */
    private long alternation() {
        long size = concatenation();
        while (at < pattern.length() && pattern.charAt(at) == '|') {
            at++;
            size = add(add(size, concatenation()), 1);
        }
        return size;
    }

    private long concatenation() {
        long size = 0;
        while (at < pattern.length() && pattern.charAt(at) != '|' && pattern.charAt(at) != ')') {
            size = add(size, repeated(atom()));
        }
        return size;
    }

    /** An atom's size with the repetitions that follow it (RE2 refuses {@code a**}, but counting it is harmless). */
    private long repeated(long atom) {
        long size = atom;
        while (at < pattern.length()) {
            char c = pattern.charAt(at);
            if (c == '*' || c == '+' || c == '?') {
                at++;
                size = add(size, 1);
            } else if (c == '{') {
                Matcher repeat = REPEAT.matcher(pattern).region(at, pattern.length());
                if (!repeat.lookingAt()) {
                    break; // a literal '{', read as an atom next
                }
                at = repeat.end();
                long min = Long.parseLong(repeat.group(1));
                if (repeat.group(2) == null) {
                    size = mul(size, min);
                } else if (repeat.group(3).isEmpty()) {
                    size = add(mul(size, min), add(size, 1)); // x{n,}: n copies and a x*
                } else {
                    long max = Math.max(min, Long.parseLong(repeat.group(3)));
                    size = add(mul(size, min), mul(add(size, 1), max - min));
                }
            } else {
                break;
            }
            if (at < pattern.length() && pattern.charAt(at) == '?') {
                at++; // non-greedy: the same instructions
            }
        }
        return size;
    }

    private long atom() {
        char c = pattern.charAt(at);
        return switch (c) {
            case '(' -> group();
            case '[' -> characterClass();
            case '\\' -> escape();
            default -> {
                at += Character.charCount(pattern.codePointAt(at));
                yield 1;
            }
        };
    }

    private long group() {
        at++;
        long extra = 2; // a capture's two instructions
        if (pattern.startsWith("?", at)) {
            extra = 0;
            int close = at;
            while (close < pattern.length() && ":)<".indexOf(pattern.charAt(close)) < 0) {
                close++;
            }
            if (close < pattern.length() && pattern.charAt(close) == ')') {
                at = close + 1; // flags only, as (?i)
                return 0;
            }
            if (close < pattern.length() && pattern.charAt(close) == '<') {
                // A named capture, (?P<name>…) or (?<name>…).
                extra = 2;
                int end = pattern.indexOf('>', close);
                close = end < 0 ? pattern.length() - 1 : end;
            }
            at = Math.min(pattern.length(), close + 1);
        }
        long size = alternation();
        if (at < pattern.length()) {
            at++; // the ')'
        }
        return add(size, extra);
    }

    /** One instruction whatever its ranges; skips to the closing {@code ]}, which may be first ({@code []a]}). */
    private long characterClass() {
        at++;
        if (pattern.startsWith("^", at)) {
            at++;
        }
        if (pattern.startsWith("]", at)) {
            at++;
        }
        while (at < pattern.length() && pattern.charAt(at) != ']') {
            if (pattern.charAt(at) == '\\') {
                escape();
            } else if (pattern.startsWith("[:", at) && pattern.indexOf(":]", at + 2) > 0) {
                at = pattern.indexOf(":]", at + 2) + 2;
            } else {
                at++;
            }
        }
        at = Math.min(pattern.length(), at + 1);
        return 1;
    }

    /** One instruction, but for {@code \Q…\E}, one per character quoted. */
    private long escape() {
        at++;
        if (at >= pattern.length()) {
            return 1;
        }
        char c = pattern.charAt(at);
        at++;
        switch (c) {
            case 'Q' -> {
                int end = pattern.indexOf("\\E", at);
                int stop = end < 0 ? pattern.length() : end;
                long size = pattern.codePointCount(at, stop);
                at = end < 0 ? stop : end + 2;
                return size;
            }
            case 'p', 'P', 'x' -> {
                if (pattern.startsWith("{", at)) {
                    int end = pattern.indexOf('}', at);
                    at = end < 0 ? pattern.length() : end + 1;
                } else if (c == 'x') {
                    at = Math.min(pattern.length(), at + 2);
                } else if (at < pattern.length()) {
                    at++;
                }
                return 1;
            }
            default -> {
                while (c >= '0' && c <= '7' && at < pattern.length() && pattern.charAt(at) >= '0' && pattern.charAt(at) <= '7') {
                    at++; // an octal escape's further digits
                }
                return 1;
            }
        }
    }

    private static long add(long a, long b) {
        return Math.min(SATURATED, a + b);
    }

    private static long mul(long a, long b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        return a > SATURATED / b ? SATURATED : Math.min(SATURATED, a * b);
    }
}
