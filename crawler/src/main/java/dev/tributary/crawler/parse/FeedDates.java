package dev.tributary.crawler.parse;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * An entry's date in every form feedparser reads it (its RFC 822 reading with two-digit years,
 * swapped day and month and named zones; asctime; W3C-DTF and ISO 8601 with a space for the
 * {@code T} or no zone at all, read as UTC), and Unix epoch seconds or milliseconds, which feeds
 * really write. An impossible calendar date or time (31 February, 25:61) is null, never rolled
 * over into another day: the caller then uses the fetch time.
 */
final class FeedDates {

    private static final Set<String> DAY_NAMES = Set.of("mon", "tue", "wed", "thu", "fri", "sat", "sun");
    private static final List<String> MONTHS = List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");
    /** feedparser's zone names (datetimes/rfc822.py), in hours east of UTC; an unknown name is UTC, as there. */
    private static final Map<String, Integer> ZONES = Map.ofEntries(Map.entry("ut", 0), Map.entry("utc", 0), Map.entry("gmt", 0),
            Map.entry("z", 0), Map.entry("adt", -3), Map.entry("ast", -4), Map.entry("at", -4), Map.entry("edt", -4),
            Map.entry("est", -5), Map.entry("et", -5), Map.entry("cdt", -5), Map.entry("cst", -6), Map.entry("ct", -6),
            Map.entry("mdt", -6), Map.entry("mst", -7), Map.entry("mt", -7), Map.entry("pdt", -7), Map.entry("pst", -8),
            Map.entry("pt", -8), Map.entry("a", -1), Map.entry("n", 1), Map.entry("m", -12), Map.entry("y", 12),
            Map.entry("met", 1), Map.entry("mest", 2));
    private static final Pattern W3C = Pattern.compile(
            "(\\d{4})(?:-?(\\d{2})(?:-?(\\d{2}))?)?"
            + "(?:[Tt ]\\s*(\\d{2}):?(\\d{2})(?::?(\\d{2})(?:[.,](\\d{1,9})\\d*)?)?\\s*(Z|z|UTC|GMT|[+-]\\d{2}(?::?\\d{2})?)?)?");
    private static final Pattern EPOCH = Pattern.compile("\\d{9,13}");

    private FeedDates() {
    }

    static @Nullable Instant parse(@Nullable String text) {
        if (text == null) {
            return null;
        }
        String date = text.strip();
        if (date.isEmpty() || date.length() > 100) {
            return null;
        }
        try {
            if (EPOCH.matcher(date).matches()) {
                long value = Long.parseLong(date);
                return date.length() <= 10 ? Instant.ofEpochSecond(value) : Instant.ofEpochMilli(value);
            }
            Matcher w3c = W3C.matcher(date);
            if (w3c.matches()) {
                return w3c(w3c);
            }
            Instant asctime = asctime(date);
            return asctime != null ? asctime : rfc822(date);
        } catch (DateTimeException | NumberFormatException | ArithmeticException impossible) {
            return null;
        }
    }

    private static Instant w3c(Matcher m) {
        int month = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
        int day = m.group(3) == null ? 1 : Integer.parseInt(m.group(3));
        int hour = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
        int minute = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
        int second = m.group(6) == null ? 0 : Integer.parseInt(m.group(6));
        int nanos = m.group(7) == null ? 0 : Integer.parseInt((m.group(7) + "00000000").substring(0, 9));
        LocalDateTime local = LocalDateTime.of(Integer.parseInt(m.group(1)), month, day, hour, minute, second, nanos);
        return local.toInstant(offset(m.group(8)));
    }

    private static ZoneOffset offset(@Nullable String zone) {
        if (zone == null || zone.length() <= 3) {
            return ZoneOffset.UTC;
        }
        String digits = zone.substring(1).replace(":", "");
        int hours = Integer.parseInt(digits.substring(0, 2));
        int minutes = digits.length() > 2 ? Integer.parseInt(digits.substring(2)) : 0;
        int sign = zone.charAt(0) == '-' ? -1 : 1;
        return ZoneOffset.ofHoursMinutes(sign * hours, sign * minutes);
    }

    /** {@code Sun Jan  4 16:29:06 PST 2004}, the zone optional: reordered into RFC 822 as feedparser does. */
    private static @Nullable Instant asctime(String date) {
        String[] parts = date.split("\\s+");
        if (parts.length != 5 && parts.length != 6 || !DAY_NAMES.contains(prefix(parts[0]))
                || month(parts[1]) == 0 || !parts[parts.length - 1].matches("\\d{4}")) {
            return null;
        }
        String zone = parts.length == 6 ? parts[4] : "+0000";
        return rfc822(parts[0] + " " + parts[2] + " " + parts[1] + " " + parts[parts.length - 1] + " " + parts[3] + " " + zone);
    }

    /** feedparser's RFC 822 reading, step by step (datetimes/rfc822.py); lenient only where it is. */
    private static @Nullable Instant rfc822(String date) {
        List<String> parts = Arrays.asList(date.toLowerCase(Locale.ROOT).split("\\s+"));
        if (!parts.isEmpty() && DAY_NAMES.contains(prefix(parts.getFirst()))) {
            parts = parts.subList(1, parts.size());
        }
        if (parts.size() < 3) {
            return null;
        }
        int day;
        int month = month(parts.get(1));
        if (parts.get(0).matches("\\d{1,2}")) {
            day = Integer.parseInt(parts.get(0));
        } else if (month(parts.get(0)) != 0 && parts.get(1).matches("\\d{1,2}")) {
            month = month(parts.get(0));
            day = Integer.parseInt(parts.get(1));
        } else {
            return null;
        }
        if (month == 0 || !parts.get(2).matches("\\d{1,4}")) {
            return null;
        }
        int year = Integer.parseInt(parts.get(2));
        if (parts.get(2).length() <= 2) {
            // feedparser: the nineties are 19xx, anything below 90 is 20xx.
            year += year < 90 ? 2000 : 1900;
        }
        int[] time = time(parts.size() > 3 ? parts.get(3) : "00:00:00");
        if (time == null) {
            return null;
        }
        LocalDateTime local = LocalDateTime.of(year, month, day, time[0], time[1], time[2]);
        return local.toInstant(zone(parts.size() > 4 ? parts.get(4) : "+0000"));
    }

    private static int @Nullable [] time(String text) {
        String[] fields = text.split(":");
        if (fields.length > 3) {
            return null;
        }
        int[] time = new int[3];
        for (int i = 0; i < fields.length; i++) {
            if (!fields[i].matches("\\d{1,2}")) {
                return null;
            }
            time[i] = Integer.parseInt(fields[i]);
        }
        return time;
    }

    private static ZoneOffset zone(String raw) {
        String zone = raw.startsWith("etc/") ? raw.substring(4) : raw;
        if (zone.startsWith("gmt") || zone.startsWith("utc")) {
            String rest = zone.substring(3).replace(":", "");
            zone = rest.isEmpty() ? "gmt" : rest;
        }
        if (zone.startsWith("+") || zone.startsWith("-")) {
            String digits = zone.substring(1).replace(":", "");
            if (!digits.matches("\\d{1,4}")) {
                throw new DateTimeException("zone " + raw);
            }
            int hours = Integer.parseInt(digits.length() <= 2 ? digits : digits.substring(0, digits.length() - 2));
            int minutes = digits.length() <= 2 ? 0 : Integer.parseInt(digits.substring(digits.length() - 2));
            int sign = zone.startsWith("-") ? -1 : 1;
            return ZoneOffset.ofHoursMinutes(sign * hours, sign * minutes);
        }
        return ZoneOffset.ofHours(ZONES.getOrDefault(zone, 0));
    }

    private static int month(String name) {
        return MONTHS.indexOf(prefix(name)) + 1;
    }

    private static String prefix(String word) {
        String lower = word.toLowerCase(Locale.ROOT);
        return lower.length() < 3 ? lower : lower.substring(0, 3);
    }
}
