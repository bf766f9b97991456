package dev.tributary.crawler.normalize;

import java.util.ArrayList;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.internal.StringUtil;
import org.jsoup.nodes.DataNode;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jspecify.annotations.Nullable;

/**
 * Lazy-loaded images made real before the allow-list sees them, else it keeps a placeholder or an
 * empty {@code <img>}: the real image in {@code data-src} (or its kin), in a srcset only, in a
 * {@code <picture>}'s {@code <source srcset>}, or only inside {@code <noscript>} beside a
 * placeholder. The best srcset candidate (widest, else densest) becomes {@code src}, resolved
 * against the element's base. Bounded: a srcset is read for at most {@link #MAX_CANDIDATES}
 * candidates within its first {@link #MAX_SRCSET} characters, a {@code <noscript>} for at most
 * {@link #MAX_NOSCRIPT} characters. Used for the feed's content and for fetched articles alike.
 */
public final class LazyImages {

    static final int MAX_CANDIDATES = 64;
    static final int MAX_SRCSET = 16 * 1024;
    static final int MAX_NOSCRIPT = 8 * 1024;
    private static final int MAX_URL = 2048;
    private static final List<String> LAZY_SOURCES = List.of("data-src", "data-lazy-src", "data-original", "data-url",
            "data-lazyload", "data-hi-res-src");
    private static final List<String> LAZY_SETS = List.of("srcset", "data-srcset", "data-lazy-srcset");

    private LazyImages() {
    }

    /** Rewrites {@code root}'s lazy images in place. */
    public static void realise(Element root) {
        for (Element noscript : root.getElementsByTag("noscript")) {
            unwrapNoscriptImage(noscript);
        }
        for (Element picture : root.getElementsByTag("picture")) {
            realisePicture(picture);
        }
        for (Element img : root.getElementsByTag("img")) {
            realiseImage(img);
        }
    }

    /**
     * A {@code <noscript>} holding one image: it replaces the placeholder image just before it,
     * or, with none there, stands in the noscript's place (the page's only copy of the picture).
     */
    private static void unwrapNoscriptImage(Element noscript) {
        if (noscript.parent() == null) {
            return;
        }
        Element image = noscriptImage(noscript);
        if (image == null) {
            return;
        }
        Element previous = noscript.previousElementSibling();
        if (previous != null && previous.nameIs("img") && !hasHttpSource(previous)) {
            previous.replaceWith(image);
            noscript.remove();
        } else if (previous != null && previous.nameIs("img")) {
            noscript.remove();
        } else {
            noscript.replaceWith(image);
        }
    }

    /** The noscript's single image (parsed as elements or kept as raw text, as the parser chose); null if not exactly one. */
    private static @Nullable Element noscriptImage(Element noscript) {
        List<Element> images = noscript.getElementsByTag("img");
        if (images.isEmpty()) {
            StringBuilder raw = new StringBuilder();
            for (Node child : noscript.childNodes()) {
                if (child instanceof TextNode text) {
                    raw.append(text.getWholeText());
                } else if (child instanceof DataNode data) {
                    raw.append(data.getWholeData());
                }
            }
            if (raw.isEmpty() || raw.length() > MAX_NOSCRIPT || raw.indexOf("<img") < 0) {
                return null;
            }
            images = Jsoup.parseBodyFragment(raw.toString(), noscript.baseUri()).body().getElementsByTag("img");
        }
        if (images.size() != 1) {
            return null;
        }
        Element image = images.getFirst().clone();
        image.setBaseUri(noscript.baseUri());
        realiseImage(image);
        return hasHttpSource(image) ? image : null;
    }

    /** A {@code <picture>} becomes its {@code <img>}, given the best source's candidate when the img has no real one. */
    private static void realisePicture(Element picture) {
        Element img = picture.selectFirst("img");
        if (img == null) {
            picture.remove();
            return;
        }
        realiseImage(img);
        if (!hasHttpSource(img)) {
            for (Element source : picture.getElementsByTag("source")) {
                String best = best(source);
                if (best != null) {
                    img.attr("src", best);
                    break;
                }
            }
        }
        picture.replaceWith(img);
    }

    private static void realiseImage(Element img) {
        String lazy = firstHttp(img);
        boolean placeholder = !hasHttpSource(img);
        if (lazy != null && (placeholder || img.hasAttr("data-src") || img.hasAttr("data-lazy-src"))) {
            img.attr("src", lazy);
        } else if (placeholder) {
            String fromSet = best(img);
            if (fromSet != null) {
                img.attr("src", fromSet);
            }
        }
    }

    private static boolean hasHttpSource(Element img) {
        String src = img.absUrl("src");
        return src.startsWith("http://") || src.startsWith("https://");
    }

    private static @Nullable String firstHttp(Element img) {
        for (String attribute : LAZY_SOURCES) {
            String url = resolve(img, img.attr(attribute).strip());
            if (url != null) {
                return url;
            }
        }
        return null;
    }

    /** The best candidate of the element's srcsets, resolved; null if none is http(s). */
    static @Nullable String best(Element element) {
        String best = null;
        double bestWidth = -1;
        double bestDensity = -1;
        for (String attribute : LAZY_SETS) {
            for (Candidate candidate : candidates(element.attr(attribute))) {
                String url = resolve(element, candidate.url());
                if (url == null) {
                    continue;
                }
                // A width beats any density: "w" describes the image itself, "x" only relative to its slot.
                boolean better = candidate.width() > 0 ? candidate.width() > bestWidth
                        : bestWidth < 0 && candidate.density() > bestDensity;
                if (better) {
                    best = url;
                    if (candidate.width() > 0) {
                        bestWidth = candidate.width();
                    } else {
                        bestDensity = candidate.density();
                    }
                }
            }
        }
        return best;
    }

    /** One srcset candidate: a url with a width ({@code 800w}, else 0) or a density ({@code 2x}, else 1). */
    record Candidate(String url, double width, double density) {
    }

    /**
     * The candidates of a srcset as the HTML standard splits them: a url runs to whitespace (so a
     * comma inside it, as image CDNs write them, stays), then descriptors to the next comma.
     */
    static List<Candidate> candidates(String srcset) {
        String set = srcset.length() > MAX_SRCSET ? srcset.substring(0, MAX_SRCSET) : srcset;
        List<Candidate> found = new ArrayList<>();
        int i = 0;
        int n = set.length();
        while (i < n && found.size() < MAX_CANDIDATES) {
            while (i < n && (Character.isWhitespace(set.charAt(i)) || set.charAt(i) == ',')) {
                i++;
            }
            int start = i;
            while (i < n && !Character.isWhitespace(set.charAt(i))) {
                i++;
            }
            String url = set.substring(start, i);
            String descriptor = "";
            if (url.endsWith(",")) {
                url = url.replaceAll(",+$", "");
            } else {
                int from = i;
                while (i < n && set.charAt(i) != ',') {
                    i++;
                }
                descriptor = set.substring(from, i).strip();
            }
            if (!url.isEmpty() && url.length() <= MAX_URL) {
                found.add(candidate(url, descriptor));
            }
        }
        return found;
    }

    private static Candidate candidate(String url, String descriptor) {
        String first = descriptor.isEmpty() ? "" : descriptor.split("\\s+")[0];
        double value = number(first.isEmpty() ? "" : first.substring(0, first.length() - 1));
        if (first.endsWith("w") && value > 0) {
            return new Candidate(url, value, 0);
        }
        return new Candidate(url, 0, first.endsWith("x") && value > 0 ? value : 1);
    }

    private static double number(String text) {
        try {
            double value = Double.parseDouble(text);
            return Double.isFinite(value) ? value : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static @Nullable String resolve(Element element, String url) {
        if (url.isEmpty() || url.length() > MAX_URL) {
            return null;
        }
        String resolved = StringUtil.resolve(element.baseUri(), url);
        return resolved.startsWith("http://") || resolved.startsWith("https://") ? resolved : null;
    }
}
