package dev.tributary.pubsub.bench;

import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.testing.PubsubTestApplication;
import dev.tributary.storage.IndexDefinition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What the pub/sub benchmarks share: the Spring context on the embedded MariaDB and Redis (as the
 * storage benchmark starts it), {@code --key=value} options, series of per-round figures with
 * their medians, and feed entries with about 1 KB of content. Not a Spring component.
 */
public final class Bench {

    private Bench() {
    }

    /**
     * The storage and pub/sub beans on ephemeral embedded servers, quiet, once every index is
     * back-filled (they are, asynchronously, at start-up). The benchmark's {@code settings} win
     * over the defaults here, and settings given on the command line ({@code --tributary.fanout.workers=4},
     * any option with a dot) win over both. They go in as command-line arguments so that they also
     * win over the tests' {@code config/application.yaml} on the class path. {@code --redis=cluster}
     * runs them on the embedded Redis Cluster of three masters instead of a single Redis.
     */
    static ConfigurableApplicationContext start(Args args, String... settings) {
        return start(PubsubTestApplication.class, args, settings);
    }

    /** As {@link #start(Args, String...)}, for the application class of a module built on pub/sub. */
    public static ConfigurableApplicationContext start(Class<?> application, Args args, String... settings) {
        Map<String, String> properties = new LinkedHashMap<>();
        List<String> all = new ArrayList<>(List.of("tributary.embedded.data-dir=target/bench-data",
                "tributary.embedded.ephemeral=true", "tributary.storage.cleaner.enabled=false",
                "spring.datasource.hikari.transaction-isolation=TRANSACTION_READ_COMMITTED", "spring.main.banner-mode=off",
                "logging.level.root=warn", "logging.level.dev.tributary=warn", "logging.level.ch.vorburger=warn"));
        // --redis=cluster: the embedded three-master Redis Cluster instead of one Redis.
        all.add("tributary.embedded.redis=" + args.text("redis", "single"));
        all.addAll(List.of(settings));
        all.addAll(args.settings());
        for (String setting : all) {
            properties.put(setting.substring(0, setting.indexOf('=')), setting.substring(setting.indexOf('=') + 1));
        }
        if (!args.settings().isEmpty()) {
            System.out.println("settings from the command line: " + String.join(" ", args.settings()));
        }
        ConfigurableApplicationContext context = new SpringApplicationBuilder(application)
                .web(WebApplicationType.NONE)
                .logStartupInfo(false)
                .run(properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new));
        awaitIndexesReady(context);
        return context;
    }

    private static void awaitIndexesReady(ConfigurableApplicationContext context) {
        int indexes = context.getBeansOfType(IndexDefinition.class).size();
        JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (jdbc.queryForObject("SELECT COUNT(*) FROM entity_indexes WHERE state = 'ready'", Long.class) < indexes) {
            if (System.nanoTime() - deadline > 0) {
                context.close();
                throw new IllegalStateException("indexes not back-filled after 120 s");
            }
            park(50);
        }
    }

    /** {@code --key=value} arguments. */
    public static final class Args {
        private final Map<String, String> given = new HashMap<>();

        public Args(String[] args) {
            for (String arg : args) {
                if (!arg.startsWith("--") || !arg.contains("=")) {
                    throw new IllegalArgumentException("arguments are --key=value, not " + arg);
                }
                given.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
            }
        }

        public int integer(String key, int fallback) {
            return given.containsKey(key) ? Integer.parseInt(given.get(key)) : fallback;
        }

        public double decimal(String key, double fallback) {
            return given.containsKey(key) ? Double.parseDouble(given.get(key)) : fallback;
        }

        public Duration seconds(String key, long fallback) {
            return Duration.ofSeconds(given.containsKey(key) ? Long.parseLong(given.get(key)) : fallback);
        }

        public String text(String key, String fallback) {
            return given.getOrDefault(key, fallback);
        }

        /** Options with a dot in their name: Spring settings for the context, as {@code key=value}. */
        public List<String> settings() {
            return given.entrySet().stream().filter(e -> e.getKey().contains("."))
                    .map(e -> e.getKey() + "=" + e.getValue()).sorted().toList();
        }
    }

    /** One figure per measured round. */
    public static final class Series {
        public final String name;
        final List<Double> values = new ArrayList<>();

        public Series(String name) {
            this.name = name;
        }

        public void add(boolean measured, double value) {
            if (measured) {
                values.add(value);
            }
        }

        public double median() {
            double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int n = sorted.length;
            if (n == 0) {
                return Double.NaN;
            }
            return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        }

        /**
         * Each round's value divided by {@code baseline}'s of the same round: on a noisy machine a
         * round's two sides meet the same minutes, so their ratio moves less than the medians'.
         */
        public Series perRound(Series baseline) {
            Series ratios = new Series(name + " / " + baseline.name);
            for (int i = 0; i < Math.min(values.size(), baseline.values.size()); i++) {
                ratios.values.add(values.get(i) / baseline.values.get(i));
            }
            return ratios;
        }

        public int size() {
            return values.size();
        }

        public double min() {
            return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        }

        public double max() {
            return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        }
    }

    /** The {@code p}-quantile (0..1) of latencies in nanoseconds, in milliseconds. */
    public static double quantileMillis(long[] nanos, int count, double p) {
        if (count == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(nanos, count);
        Arrays.sort(sorted);
        int index = (int) Math.min(count - 1, Math.max(0, Math.ceil(p * count) - 1));
        return sorted[index] / 1e6;
    }

    public static void park(long millis) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    public static void join(List<Thread> threads, Duration limit) {
        for (Thread thread : threads) {
            try {
                if (!thread.join(limit)) {
                    throw new IllegalStateException(thread.getName() + " still running after " + limit);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static final String[] WORDS = ("feed river item summary people group media video audio image text link "
            + "source crawler fanout inbox timeline unread count subscribe publish entity index store batch write read "
            + "page cursor window trim cleaner tombstone delete update guid hash author title url tag").split(" ");

    /** A feed entry with a title, url, two tags and an HTML summary of about 800 characters: ~1 KB as JSON. */
    public static NewItem entry(Random random, String guid, java.time.Instant published) {
        StringBuilder summary = new StringBuilder(900);
        while (summary.length() < 800) {
            summary.append(WORDS[random.nextInt(WORDS.length)]).append(random.nextInt(10) == 0 ? ". " : " ");
        }
        return new NewItem(guid, "Item " + guid + " about " + WORDS[random.nextInt(WORDS.length)], "<p>" + summary + "</p>",
                "https://example.org/items/" + guid, "author " + random.nextInt(100), MediaType.TEXT, List.of(),
                List.of(WORDS[random.nextInt(WORDS.length)], WORDS[random.nextInt(WORDS.length)]), published);
    }

    public static String format(String pattern, Object... args) {
        return String.format(Locale.ROOT, pattern, args);
    }
}
