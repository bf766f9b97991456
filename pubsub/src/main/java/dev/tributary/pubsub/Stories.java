package dev.tributary.pubsub;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A feed item's story: what says that two feeds carry the same post (one blog's category feeds),
 * hashed to 64 bits; a person's inbox holds a story once. Evidence of one story, first found:
 * <ol>
 * <li>the same guid where a guid means the same thing in every feed: a permalink (an http(s) URL,
 *     canonical as a link is, and not the feed's home page) or a {@code tag:} or {@code urn:} URI;
 *     first, because it names the entry itself where a link may be a redirect of each feed's own;</li>
 * <li>the same canonical link, however each feed spells it (http or https, host case, default
 *     ports, tracking parameters, a trailing slash and a fragment make no difference, except a
 *     fragment that tells the document's entries apart: {@code changelog#v2-0} and
 *     {@code changelog#v2-3} are two entries), unless the link is the feed's home page or its own
 *     url, or a link several entries of the document share.</li>
 * </ol>
 * A permalink guid and a link share one space: a feed whose guid is the permalink meets a feed
 * that only links it.
 * And two entries of one feed with distinct guids are never one story: an entry takes the first
 * of its candidates no other entry of its feed holds, else none (it is then never merged).
 * Pure: the caller says which stories the feed's stored items hold.
 */
final class Stories {

    /** Longest link considered; a longer one is nobody's canonical link and has no story. */
    static final int MAX_LINK = 2048;

    private Stories() {
    }

    /** The story of a link (a person's post's, for "shared by"): its canonical form's; null if it is not an http(s) URL. */
    static @Nullable Long ofLink(@Nullable String url) {
        String canonical = canonical(url);
        return canonical == null ? null : hash(canonical);
    }

    /**
     * The candidate stories of each entry of {@code fresh} (by guid), best first, given the whole
     * document they came in (which tells which pages several of the feed's entries link) and the
     * feed's home page and url. The caller then drops those another entry of the feed holds.
     */
    static Map<String, List<Long>> candidates(@Nullable String siteUrl, @Nullable String feedUrl,
            Collection<NewItem> document, Collection<NewItem> fresh) {
        Set<String> home = new HashSet<>();
        for (String page : new String[] {siteUrl, feedUrl}) {
            String canonical = canonical(page);
            if (canonical != null) {
                home.add(canonical);
            }
        }
        // Per page (its canonical link without fragment): the links to it as written with their
        // fragments, and the guids linking each. Anchors of one page that tell entries apart keep
        // their fragment; a link two entries share is nobody's permalink (a digest, a home page).
        Map<String, Map<String, Set<String>>> pages = new HashMap<>();
        for (NewItem entry : document) {
            String page = canonical(entry.url());
            if (page != null) {
                pages.computeIfAbsent(page, p -> new HashMap<>())
                        .computeIfAbsent(withFragment(entry.url()), l -> new HashSet<>()).add(entry.guid());
            }
        }
        Map<String, List<Long>> candidates = new LinkedHashMap<>();
        for (NewItem entry : fresh) {
            List<Long> of = new ArrayList<>(2);
            String guid = globalGuid(entry.guid());
            if (guid != null && !home.contains(guid)) {
                of.add(hash(guid));
            }
            String link = linkEvidence(entry, home, pages);
            if (link != null) {
                Long story = hash(link);
                if (!of.contains(story)) {
                    of.add(story);
                }
            }
            candidates.put(entry.guid(), of);
        }
        return candidates;
    }

    /**
     * The entry's link as evidence: the page, or the page with its fragment where the document's
     * entries link that page at several fragments (a changelog's {@code #v2-0}, {@code #v2-3});
     * null where it is the home page or a link another entry of the document shares.
     */
    private static @Nullable String linkEvidence(NewItem entry, Set<String> home, Map<String, Map<String, Set<String>>> pages) {
        String page = canonical(entry.url());
        if (page == null || home.contains(page)) {
            return null;
        }
        Map<String, Set<String>> links = pages.get(page);
        if (links == null) {
            // Not in the document given (a caller's mistake): the page alone, unshared as far as known.
            return page;
        }
        if (links.size() > 1) {
            String link = withFragment(entry.url());
            return links.getOrDefault(link, Set.of()).size() <= 1 ? link : null;
        }
        return links.values().iterator().next().size() <= 1 ? page : null;
    }

    /**
     * The guid as a story sees it when it means the same in every feed: a permalink (canonical, so
     * it meets the same link), a {@code tag:} or {@code urn:} URI (scheme lower-cased); else null
     * ("42", a bare uuid, a hash: only this feed knows what those name).
     */
    static @Nullable String globalGuid(String guid) {
        String stripped = guid.strip();
        String lower = stripped.toLowerCase(Locale.ROOT);
        if ((lower.startsWith("tag:") || lower.startsWith("urn:")) && stripped.length() > 4) {
            return lower.substring(0, 4) + stripped.substring(4);
        }
        return canonical(stripped);
    }

    /**
     * The link as a story sees it, without its scheme or fragment ({@code //host/path?query}), or
     * null if it is not an absolute http(s) URL with a host. A fragment most often points into the
     * same page ({@code #comments}); where it tells a feed's entries apart, {@link #withFragment} keeps it.
     */
    static @Nullable String canonical(@Nullable String link) {
        return canonical(link, false);
    }

    /** {@link #canonical} with the fragment, if any: {@code //host/path?query#fragment}. */
    static @Nullable String withFragment(@Nullable String link) {
        return canonical(link, true);
    }

    private static @Nullable String canonical(@Nullable String link, boolean fragment) {
        if (link == null || link.isBlank() || link.length() > MAX_LINK) {
            return null;
        }
        URI uri;
        try {
            uri = new URI(link.strip());
        } catch (URISyntaxException e) {
            return null;
        }
        String scheme = uri.getScheme();
        String host = uri.getHost();
        if (scheme == null || host == null
                || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
            return null;
        }
        StringBuilder out = new StringBuilder(link.length()).append("//").append(hostOf(host));
        int port = uri.getPort();
        if (port != -1 && port != 80 && port != 443) {
            out.append(':').append(port);
        }
        out.append(pathOf(uri.getRawPath()));
        String query = queryOf(uri.getRawQuery());
        if (!query.isEmpty()) {
            out.append('?').append(query);
        }
        String raw = uri.getRawFragment();
        if (fragment && raw != null && !raw.isEmpty()) {
            out.append('#').append(raw);
        }
        return out.toString();
    }

    private static String hostOf(String host) {
        String lower = host.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    }

    /** The path without trailing slashes: {@code /a/} is {@code /a}, and {@code /} is empty, as no path is. */
    private static String pathOf(@Nullable String path) {
        if (path == null) {
            return "";
        }
        int end = path.length();
        while (end > 0 && path.charAt(end - 1) == '/') {
            end--;
        }
        return path.substring(0, end);
    }

    /** The parameters that say what the page is, sorted (their order says nothing); tracking ones dropped. */
    private static String queryOf(@Nullable String query) {
        if (query == null || query.isEmpty()) {
            return "";
        }
        return Arrays.stream(query.split("&"))
                .filter(parameter -> !parameter.isEmpty() && !tracking(parameter))
                .sorted()
                .collect(Collectors.joining("&"));
    }

    private static boolean tracking(String parameter) {
        int equals = parameter.indexOf('=');
        String name = (equals < 0 ? parameter : parameter.substring(0, equals)).toLowerCase(Locale.ROOT);
        return name.startsWith("utm_") || name.startsWith("mc_") || switch (name) {
            case "fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "igshid", "twclid", "_hsenc", "_hsmi" -> true;
            default -> false;
        };
    }

    /** The first 64 bits of the canonical link's (or global guid's) SHA-256: collisions are as likely as two random longs meeting. */
    static long hash(String canonical) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
