package dev.tributary.pubsub.bench;

import dev.tributary.pubsub.ItemContent;
import java.util.Random;

/**
 * Full contents shaped like a WordPress blog's {@code content:encoded} after sanitising, for the
 * storage cost of issue 47: 2–27 KB of HTML each (uniform), of paragraphs with links and emphasis,
 * headings, figures with captions, lists, quotes and code blocks in the proportions of a typical
 * technical blog. The prose is drawn from a vocabulary with a Zipf-like skew (a few words common,
 * most rare), so it deflates about as English does rather than as random letters or a repeated word.
 */
final class WordPressPosts {

    static final int MIN_BYTES = 2 * 1024;
    static final int MAX_BYTES = 27 * 1024;
    private static final String[] VOCABULARY = ("the of and to a in is that for it as was with be by on not he this are or his from at "
            + "which but have an they you were her she there been one all we their has would when if so no will can more other what "
            + "feed server database query index cache latency request response thread memory disk network packet header client "
            + "release version build test failure error warning log metric trace span deploy container cluster node replica shard "
            + "garden river mountain kitchen bread coffee morning evening winter summer autumn spring weekend journey station "
            + "photograph camera lens light shadow colour paper ink pencil letter chapter novel author reader library archive "
            + "because however although therefore meanwhile perhaps usually rarely often always never sometimes quickly slowly "
            + "important different possible available particular necessary similar simple complex large small early late recent "
            + "measure compare improve reduce increase handle parse render publish subscribe fetch store read write open close "
            + "question answer problem solution example result reason method system process design pattern change value number")
            .split(" ");

    private WordPressPosts() {
    }

    /** A post of {@code MIN_BYTES}..{@code MAX_BYTES} bytes of HTML. */
    static ItemContent post(Random random, String slug) {
        int target = MIN_BYTES + random.nextInt(MAX_BYTES - MIN_BYTES + 1);
        StringBuilder html = new StringBuilder(target + 512);
        int block = 0;
        while (html.length() < target) {
            int kind = random.nextInt(20);
            if (block > 0 && kind == 0) {
                html.append("<h2>").append(sentence(random, 3, 7)).append("</h2>");
            } else if (kind == 1) {
                int n = random.nextInt(900) + 100;
                html.append("<figure><img src=\"https://blog.example.org/wp-content/uploads/2026/11/").append(slug).append('-').append(n)
                        .append("-1024x683.jpg\" alt=\"").append(sentence(random, 3, 8)).append("\" width=\"1024\" height=\"683\">")
                        .append("<figcaption>").append(sentence(random, 5, 12)).append("</figcaption></figure>");
            } else if (kind == 2) {
                html.append("<ul>");
                for (int i = random.nextInt(4) + 2; i > 0; i--) {
                    html.append("<li>").append(sentence(random, 4, 14)).append("</li>");
                }
                html.append("</ul>");
            } else if (kind == 3) {
                html.append("<pre><code>");
                for (int i = random.nextInt(8) + 3; i > 0; i--) {
                    html.append("    ").append(word(random)).append('.').append(word(random)).append("(\"").append(word(random))
                            .append("\", ").append(random.nextInt(1000)).append(");\n");
                }
                html.append("</code></pre>");
            } else if (kind == 4) {
                html.append("<blockquote><p>").append(sentence(random, 10, 30)).append("</p></blockquote>");
            } else {
                html.append("<p>");
                for (int s = random.nextInt(5) + 2; s > 0; s--) {
                    html.append(sentence(random, 8, 24));
                    if (random.nextInt(4) == 0) {
                        html.append(" See <a href=\"https://blog.example.org/2026/").append(random.nextInt(12) + 1).append('/')
                                .append(word(random)).append('-').append(word(random)).append("/\" rel=\"nofollow noopener\">")
                                .append(sentence(random, 2, 5)).append("</a>.");
                    } else if (random.nextInt(6) == 0) {
                        html.append(" <em>").append(sentence(random, 2, 4)).append("</em>");
                    }
                    html.append(' ');
                }
                html.append("</p>");
            }
            block++;
        }
        return new ItemContent(html.toString(), false);
    }

    private static String sentence(Random random, int min, int max) {
        StringBuilder text = new StringBuilder();
        for (int i = min + random.nextInt(max - min + 1); i > 0; i--) {
            String word = word(random);
            text.append(text.isEmpty() ? Character.toUpperCase(word.charAt(0)) + word.substring(1) : word).append(i > 1 ? " " : ".");
        }
        return text.toString();
    }

    /** A word with a Zipf-like skew: index = length × u³ favours the head of the vocabulary. */
    private static String word(Random random) {
        double u = random.nextDouble();
        return VOCABULARY[(int) (VOCABULARY.length * u * u * u)];
    }
}
