import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The capacity model ({@code ./bench/run capacity}): what a deployment needs in app nodes, MySQL
 * primaries, Redis Cluster masters and network, computed from the costs the benchmarks measured on
 * this machine ({@code bench/results/*.properties}, rewritten by each run) and the workload in
 * {@code bench/capacity/workload.properties}. Run with {@code java bench/capacity/Capacity.java}.
 */
public final class Capacity {

    private static final double SECONDS_PER_DAY = 86_400;
    private static final String[] PARTS = {"app", "mariadb", "redis"};

    private final Properties workload;
    private final Map<String, Properties> results;
    private final List<String> missing = new ArrayList<>();

    Capacity(Properties workload, Map<String, Properties> results) {
        this.workload = workload;
        this.results = results;
    }

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        Properties workload = load(root.resolve("bench/capacity/workload.properties"));
        Map<String, Properties> results = new TreeMap<>();
        Path dir = root.resolve("bench/results");
        if (Files.isDirectory(dir)) {
            try (var files = Files.list(dir)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".properties")).sorted().toList()) {
                    results.put(file.getFileName().toString().replace(".properties", ""), load(file));
                }
            }
        }
        new Capacity(workload, results).print();
    }

    private static Properties load(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        }
        return properties;
    }

    private double w(String key) {
        String value = workload.getProperty(key);
        if (value == null) {
            throw new IllegalArgumentException("bench/capacity/workload.properties lacks " + key);
        }
        return Double.parseDouble(value.trim());
    }

    /** A measured cost, or NaN and a note of which benchmark to run. */
    private double cost(String benchmark, String key) {
        Properties figures = results.get(benchmark);
        String value = figures == null ? null : figures.getProperty(key);
        if (value == null) {
            String note = "bench/results/" + benchmark + ".properties: " + key + " (./bench/run " + benchmark + ")";
            if (!missing.contains(note)) {
                missing.add(note);
            }
            return Double.NaN;
        }
        return Double.parseDouble(value.trim());
    }

    // ------------------------------------------------------------------ the audience distribution

    /**
     * Feeds by audience: a Pareto through the median (P(audience >= x) = (x / xm)^-beta, so the
     * median is xm * 2^(1/beta)) whose mean, truncated at the largest audience, is subscriptions
     * over feeds. Evaluated by rank: the feed of rank r (1 = largest) has audience
     * min(max, xm * (feeds / r)^(1/beta)).
     */
    record Audience(double beta, double xm, double feeds, double max) {
        double at(double rank) {
            return Math.min(max, xm * Math.pow(feeds / rank, 1 / beta));
        }

        /** Sums f(audience) over the ranks, on a log grid (exact enough for sums over 10^7 ranks). */
        double sum(java.util.function.DoubleUnaryOperator f) {
            double total = 0;
            double rank = 1;
            while (rank <= feeds) {
                double next = Math.min(feeds + 1, Math.max(rank + 1, Math.floor(rank * 1.01)));
                double width = next - rank;
                total += f.applyAsDouble(at(rank + (width - 1) / 2)) * width;
                rank = next;
            }
            return total;
        }
    }

    private Audience fitAudience() {
        double feeds = w("feeds");
        double median = w("audience_median");
        double max = w("audience_max");
        double mean = w("people") * w("subscriptions_per_person") / feeds;
        double low = 1.0001;
        double high = 10;
        Audience fit = null;
        for (int i = 0; i < 100; i++) {
            double beta = (low + high) / 2;
            fit = new Audience(beta, median / Math.pow(2, 1 / beta), feeds, max);
            // A smaller beta is a heavier tail and a larger mean.
            if (fit.sum(a -> a) / feeds > mean) {
                low = beta;
            } else {
                high = beta;
            }
        }
        return fit;
    }

    // ------------------------------------------------------------------ costs

    /**
     * CPU ms of delivering one item to an audience of this size, by part (app, MariaDB, Redis):
     * scenario s's push of one item to N followers less its pull of one item to the same N (the
     * publish itself, which the crawler's cost per refresh already holds), log-interpolated between
     * the measured N; below the smallest N the delivery's fixed cost stays (a task, a claim, a
     * transaction), so a feed of 3 followers costs about what one of 10 does.
     */
    private double[] deliveryCost(double audience) {
        TreeMap<Double, double[]> measured = deliveries();
        if (measured.isEmpty()) {
            cost("fanout", "s.1000.push.cpu_ms_per_1000_rows.app");
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
        Map.Entry<Double, double[]> below = measured.floorEntry(audience);
        Map.Entry<Double, double[]> above = measured.ceilingEntry(audience);
        if (below == null) {
            return above.getValue();
        }
        if (above == null || above.getKey().equals(below.getKey())) {
            double[] scaled = below.getValue().clone();
            for (int p = 0; p < scaled.length; p++) {
                scaled[p] *= audience / below.getKey(); // above the largest N: its cost per row
            }
            return scaled;
        }
        double t = Math.log(audience / below.getKey()) / Math.log(above.getKey() / below.getKey());
        double[] parts = new double[PARTS.length];
        for (int p = 0; p < PARTS.length; p++) {
            parts[p] = below.getValue()[p] + t * (above.getValue()[p] - below.getValue()[p]);
        }
        return parts;
    }

    private TreeMap<Double, double[]> deliveries;

    /** Delivery CPU ms per publish at each measured audience N, by part. */
    private TreeMap<Double, double[]> deliveries() {
        if (deliveries != null) {
            return deliveries;
        }
        deliveries = new TreeMap<>();
        Properties fanout = results.get("fanout");
        if (fanout == null) {
            return deliveries;
        }
        for (String key : fanout.stringPropertyNames()) {
            if (!key.startsWith("s.") || !key.endsWith(".push.cpu_ms_per_1000_rows.total")) {
                continue;
            }
            String size = key.substring(2, key.indexOf(".push"));
            double n = Double.parseDouble(size);
            double pushTotal = cost("fanout", key) * n / 1000;
            double pullTotal = cost("fanout", "s." + size + ".pull.cpu_ms_per_1000_followers") * n / 1000;
            double delivery = Math.max(0, pushTotal - pullTotal);
            double[] parts = new double[PARTS.length];
            for (int p = 0; p < PARTS.length; p++) {
                // The delivery's share of each part as the push's parts stand.
                parts[p] = delivery * cost("fanout", "s." + size + ".push.cpu_ms_per_1000_rows." + PARTS[p]) * n / 1000 / pushTotal;
            }
            deliveries.put(n, parts);
        }
        return deliveries;
    }

    private double[] perRequest(String endpoint) {
        double[] parts = new double[PARTS.length];
        for (int p = 0; p < PARTS.length; p++) {
            parts[p] = cost("http", endpoint + ".cpu_ms_per_request." + PARTS[p]);
        }
        return parts;
    }

    private double[] perRefresh() {
        double[] parts = new double[PARTS.length];
        for (int p = 0; p < PARTS.length; p++) {
            parts[p] = cost("crawler", "refresh.cpu_ms." + PARTS[p]);
        }
        return parts;
    }

    // ------------------------------------------------------------------ the model

    /** What one choice of the push/pull switch needs at the busiest hour. */
    record Sizing(double threshold, double pushRowsPerSecond, double pulledFeeds, double pulledPerPerson, double[] cores,
            double inboxGb, double itemGb, double redisGb, double appNodes, double mysqlByCpu, double mysqlByStorage,
            double redisByCpu, double redisByMemory, double networkInMbps, double networkOutMbps) {
        double mysql() {
            return Math.max(mysqlByCpu, mysqlByStorage);
        }

        double redis() {
            return Math.max(redisByCpu, redisByMemory);
        }

        double machines() {
            return Math.ceil(appNodes) + Math.ceil(mysql()) + Math.ceil(redis());
        }
    }

    Sizing size(Audience audience, double threshold) {
        double people = w("people");
        double itemsPerDay = w("items_per_feed_per_day");
        double peak = w("peak_to_mean");
        double[] cores = new double[PARTS.length];
        // Fan-out: each pushed feed's items to its audience at its audience's cost per row.
        double[] pushMs = new double[PARTS.length];
        double pushRows = audience.sum(a -> a < threshold ? a : 0) * itemsPerDay;
        for (int p = 0; p < PARTS.length; p++) {
            int part = p;
            pushMs[p] = audience.sum(a -> a < threshold ? deliveryCost(a)[part] : 0) * itemsPerDay;
            cores[p] += pushMs[p] / 1000 / SECONDS_PER_DAY * peak;
        }
        double pulledFeeds = audience.sum(a -> a >= threshold ? 1 : 0);
        double pulledPerPerson = audience.sum(a -> a >= threshold ? a : 0) / people;
        // Reads: a home page costs more with each pulled source its reader follows.
        double active = people * w("active_share");
        double homePerSecond = active * w("home_reads_per_active_person") / SECONDS_PER_DAY * peak;
        double unreadPerSecond = active * w("unread_reads_per_active_person") / SECONDS_PER_DAY * peak;
        double pageFactor = 1 + w("pulled_page_cost_per_source") * pulledPerPerson;
        double[] home = perRequest("home");
        double[] unread = perRequest("unread");
        double fetchesPerSecond = w("feeds") / (w("refresh_minutes") * 60);
        double[] refresh = perRefresh();
        for (int p = 0; p < PARTS.length; p++) {
            cores[p] += (homePerSecond * home[p] * pageFactor + unreadPerSecond * unread[p]) / 1000;
            cores[p] += fetchesPerSecond * refresh[p] / 1000;
        }
        double util = w("utilisation");
        double inboxGb = people * w("inbox_window") * cost("fanout", "inbox.bytes_per_row") / 1e9;
        double itemBytes = results.containsKey("content") ? cost("content", "item.bytes_stored") : w("item_bytes");
        double itemGb = w("feeds") * itemsPerDay * w("item_retention_days") * itemBytes / 1e9;
        double redisGb = active * cost("fanout", "redis.bytes_per_counted_person") / 1e9;
        double changed = fetchesPerSecond * (1 - w("unchanged_share"));
        double networkIn = changed * w("feed_kilobytes") * 8 / 1000;
        double networkOut = (homePerSecond * cost("http", "home.body_bytes") + unreadPerSecond * cost("http", "unread.body_bytes"))
                * 8 / 1e6;
        return new Sizing(threshold, pushRows / SECONDS_PER_DAY * peak, pulledFeeds, pulledPerPerson, cores, inboxGb, itemGb,
                redisGb, cores[0] / (w("cores_per_app_node") * util), cores[1] / (w("cores_per_mysql_primary") * util),
                (inboxGb + itemGb) / (w("storage_gb_per_mysql_primary") * util), cores[2] / (w("cores_per_redis_master") * util),
                redisGb / (w("memory_gb_per_redis_master") * util), networkIn, networkOut);
    }

    void print() {
        Audience audience = fitAudience();
        System.out.printf(Locale.ROOT, "capacity model: %,.0f people x %,.0f subscriptions, %,.0f feeds; audience median %.1f, "
                + "mean %.1f, largest %,.0f (Pareto beta %.3f, xm %.2f); feeds with >= 1,000 followers: %,.0f%n",
                w("people"), w("subscriptions_per_person"), w("feeds"), audience.at(w("feeds") / 2),
                audience.sum(a -> a) / w("feeds"), audience.at(1), audience.beta(), audience.xm(), audience.sum(a -> a >= 1000 ? 1 : 0));
        System.out.printf(Locale.ROOT, "busiest hour = %.0fx the day's mean; resources at most %.0f %% used%n", w("peak_to_mean"),
                w("utilisation") * 100);
        System.out.println();
        System.out.printf(Locale.ROOT, "%-10s %12s %10s %9s %8s %8s %8s %9s %8s %9s %8s %9s %8s%n", "switch at", "push rows/s",
                "pulled", "pulled/p", "app cpu", "db cpu", "redis", "app nodes", "mysql", "(storage)", "redis", "(memory)",
                "machines");
        Sizing best = null;
        for (double threshold : new double[] {100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 1_000_001}) {
            Sizing s = size(audience, threshold);
            System.out.printf(Locale.ROOT, "%-10s %,12.0f %,10.0f %9.1f %8.1f %8.1f %8.2f %9.1f %8.1f %9.1f %8.1f %9.1f %8.0f%n",
                    threshold > 1_000_000 ? "never" : String.format(Locale.ROOT, "%,.0f", threshold), s.pushRowsPerSecond(),
                    s.pulledFeeds(), s.pulledPerPerson(), s.cores()[0], s.cores()[1], s.cores()[2], s.appNodes(), s.mysql(),
                    s.mysqlByStorage(), s.redis(), s.redisByMemory(), s.machines());
            if (best == null || s.machines() < best.machines()
                    || s.machines() == best.machines() && s.pulledPerPerson() < best.pulledPerPerson()) {
                best = s;
            }
        }
        System.out.println("(cores are busy-hour CPU cores of each kind of process; app nodes, MySQL primaries and Redis masters are "
                + "the larger of their CPU and their storage/memory need, before rounding up)");
        if (!missing.isEmpty()) {
            System.out.println();
            System.out.println("MISSING MEASUREMENTS (their cells are NaN; run these benchmarks first):");
            missing.forEach(note -> System.out.println("  " + note));
            System.exit(2);
        }
        Sizing s = best;
        System.out.println();
        String at = s.threshold() > w("audience_max") ? "with no source pulled" : String.format(Locale.ROOT,
                "at the switch of %,.0f followers", s.threshold());
        System.out.printf(Locale.ROOT, "%s: %.0f app nodes (%d cores), %.0f MySQL primaries (%s first: "
                + "%.1f by CPU, %.1f by storage; inbox %,.0f GB + items %,.0f GB), %.0f Redis masters (%s first: %.1f by CPU, "
                + "%.1f by memory, %,.1f GB), network in %,.0f Mbit/s (feeds), out %,.0f Mbit/s (API)%n", at,
                Math.ceil(s.appNodes()), (int) w("cores_per_app_node"), Math.ceil(s.mysql()),
                s.mysqlByCpu() >= s.mysqlByStorage() ? "CPU" : "storage", s.mysqlByCpu(), s.mysqlByStorage(), s.inboxGb(), s.itemGb(),
                Math.ceil(s.redis()), s.redisByCpu() >= s.redisByMemory() ? "CPU" : "memory", s.redisByCpu(), s.redisByMemory(),
                s.redisGb(), s.networkInMbps(), s.networkOutMbps());
        String first = s.mysql() >= s.appNodes() && s.mysql() >= s.redis() ? "MySQL" : s.appNodes() >= s.redis() ? "app nodes" : "Redis";
        System.out.printf(Locale.ROOT, "capacity: %.0f machines %s; the first limit is %s%n", s.machines(), at, first);
    }
}
