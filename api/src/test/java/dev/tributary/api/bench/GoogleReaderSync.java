package dev.tributary.api.bench;

import com.github.benmanes.caffeine.cache.Cache;
import dev.tributary.pubsub.bench.Bench;
import dev.tributary.pubsub.bench.Bench.Args;
import dev.tributary.pubsub.bench.Bench.Series;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ./bench/run greader --mode=sync}: one app's first full sync of 10,000 unread items over
 * the Google Reader API against reading the same items through the home timeline, one client,
 * one request at a time (as apps sync), in the same run on the same data.
 *
 * <p>Subjects, each a sequence of requests timed end to end:
 * <ul>
 * <li>{@code nnw}, the shape (NetNewsWire until October 2020): {@code GET
 * /reader/api/0/stream/items/ids?s=…/reading-list&xt=…/read&n=10000&output=json}, following
 * {@code continuation} (NetNewsWire adds {@code c=} to the same URL) until none, then
 * {@code GET /reader/api/0/token} once and {@code POST /reader/api/0/stream/items/contents} of
 * {@code T=<token>&output=json&i=tag:google.com,2005:reader/item/<16 hex>&…} in batches of 1,000.</li>
 * <li>{@code nnw-now}, the same calls as NetNewsWire sends them today: ids in pages of 1,000,
 * contents in batches of 150.</li>
 * <li>{@code home} (the baseline): {@code GET /api/v1/timelines/home?unread=true&limit=100}
 * following {@code Link: rel="next"} until an empty page, with a bearer token.</li>
 * </ul>
 * The request shapes are NetNewsWire's: github.com/Ranchero-Software/NetNewsWire,
 * Modules/Account/Sources/Account/ReaderAPI/ReaderAPICaller.swift ({@code retrieveItemIDs},
 * {@code retrieveEntries}, {@code itemIDParameter}, {@code requestAuthorizationToken}) and
 * ReaderAPIAccountDelegate.swift ({@code refreshMissingArticles}: {@code chunked(into: 150)});
 * the issue's {@code n=10000} is that file before commit cc269a808 (2020-10-26) and its 1,000-id
 * batches before ea1537118 (2020-10-31).
 *
 * <p>Every person holds the same 10,000 items over 50 feeds, all unread; each (round, subject)
 * syncs a person nobody has synced yet, so the per-person caches are cold as on a first sync (the
 * items' shared JSON is warm after the warm-up round, for every subject alike). Rounds rotate the
 * subjects' order. Each sync must return exactly the 10,000 unread ids, the same set for every
 * subject, or the run fails. The SQL statements a sync costs are counted from MariaDB's
 * {@code Questions} (this process's only client while it runs).
 *
 * <p>Options: {@code --items=10000}, {@code --rounds=5}, {@code --ids-page=10000},
 * {@code --batch=1000}, {@code --cold=false} ({@code true}: before every sync, empty every
 * in-process Caffeine cache of the API's beans, e.g. the Google Reader items' rendered JSON, so
 * each sync also meets items this node has not rendered yet, as after a restart).
 */
final class GoogleReaderSync {

    private static final double TARGET = 0.8;
    private static final String READING_LIST = "user/-/state/com.google/reading-list";
    private static final String READ = "user/-/state/com.google/read";
    private static final String LONG_PREFIX = "tag:google.com,2005:reader/item/";
    private static final Pattern NEXT = Pattern.compile("<([^>]+)>;\\s*rel=\"next\"");
    private static final Duration SYNC_LIMIT = Duration.ofMinutes(3);

    /** A subject: how many ids a page asks for and how many a contents call carries; 0 for the home timeline. */
    private record Shape(String name, int idsPage, int batch) {
    }

    /** One sync: items read, wall time, requests and SQL statements it cost, and the ids it read. */
    private record Sync(int items, double seconds, int requests, long statements, Set<String> ids) {
    }

    private GoogleReaderSync() {
    }

    static long run(ConfigurableApplicationContext context, Args options) throws Exception {
        int items = options.integer("items", 10_000);
        int rounds = options.integer("rounds", 5);
        List<Shape> shapes = List.of(new Shape("nnw", options.integer("ids-page", 10_000), options.integer("batch", 1_000)),
                new Shape("nnw-now", 1_000, 150), new Shape("home", 0, 0));
        int people = (rounds + 1) * shapes.size(); // a warm-up round, then every (round, subject) its own person
        HttpSeed.People seeded = new HttpSeed(context).seed(people, items, items, true);
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        JdbcTemplate jdbc = new JdbcTemplate(context.getBean(javax.sql.DataSource.class));
        long unread = jdbc.queryForObject("SELECT COUNT(*) FROM inbox WHERE user_id = ? AND is_read = FALSE", Long.class,
                seeded.ids()[0]);
        if (unread != items) {
            throw new IllegalStateException("the first person has " + unread + " unread entries, not " + items);
        }
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        JsonMapper json = JsonMapper.builder().build();
        Client client = new Client(http, json, "http://127.0.0.1:" + port, jdbc);
        System.out.println(Bench.format("set-up: %,d people, each with the same %,d unread items over 50 feeds; %d rounds "
                + "after a warm-up round, one person per round and subject", people, items, rounds));

        Map<String, Series> rates = new LinkedHashMap<>();
        Map<String, Series> statements = new LinkedHashMap<>();
        Map<String, Series> requests = new LinkedHashMap<>();
        shapes.forEach(shape -> {
            rates.put(shape.name(), new Series(shape.name()));
            statements.put(shape.name(), new Series(shape.name() + " sql"));
            requests.put(shape.name(), new Series(shape.name() + " requests"));
        });
        boolean cold = Boolean.parseBoolean(options.text("cold", "false"));
        List<Cache<?, ?>> caches = cold ? caches(context) : List.of();
        if (cold) {
            System.out.println(Bench.format("cold: %d in-process caches of the API's beans emptied before every sync", caches.size()));
        }
        long errors = 0;
        int person = 0;
        for (int round = 0; round <= rounds; round++) {
            Set<String> expected = null;
            for (int i = 0; i < shapes.size(); i++) {
                Shape shape = shapes.get((i + round) % shapes.size());
                String user = Bench.format("bench_%06d", person);
                String token = seeded.tokens().get(person);
                person++;
                caches.forEach(Cache::invalidateAll);
                Sync sync = shape.batch() == 0 ? client.home(token) : client.reader(user, token, shape);
                boolean complete = sync.items() == items && sync.ids().size() == items && (expected == null || expected.equals(sync.ids()));
                if (expected == null) {
                    expected = sync.ids();
                }
                if (!complete) {
                    errors++;
                }
                double rate = sync.items() / sync.seconds();
                rates.get(shape.name()).add(round > 0, rate);
                statements.get(shape.name()).add(round > 0, sync.statements());
                requests.get(shape.name()).add(round > 0, sync.requests());
                System.out.println(Bench.format("%s %-8s %,6d items in %6.2f s = %,7.0f items/s, %4d requests, "
                        + "%,6d SQL statements%s", round == 0 ? "warm-up " : "round " + round + " ", shape.name(), sync.items(),
                        sync.seconds(), rate, sync.requests(), sync.statements(), complete ? "" : "  INCOMPLETE (not the 10,000 unread)"));
            }
        }
        return report(shapes, rates, statements, requests, rounds, errors);
    }

    /** The Caffeine caches held in fields of the API's beans (bench only: read by reflection). */
    private static List<Cache<?, ?>> caches(ConfigurableApplicationContext context)
            throws IllegalAccessException {
        List<Cache<?, ?>> found = new ArrayList<>();
        for (String name : context.getBeanDefinitionNames()) {
            Object bean = context.getBeanFactory().getSingleton(name);
            if (bean == null || !bean.getClass().getName().startsWith("dev.tributary.api.")) {
                continue;
            }
            for (Field field : bean.getClass().getDeclaredFields()) {
                if (Cache.class.isAssignableFrom(field.getType())) {
                    field.setAccessible(true);
                    found.add((Cache<?, ?>) field.get(bean));
                }
            }
        }
        return found;
    }

    private static long report(List<Shape> shapes, Map<String, Series> rates, Map<String, Series> statements,
            Map<String, Series> requests, int rounds, long errors) {
        double home = rates.get("home").median();
        System.out.println();
        System.out.println(Bench.format("%-8s %11s %9s %9s %9s %10s %8s  %s", "subject", "items/s", "min", "max", "requests",
                "SQL stmts", "vs home", "shape"));
        for (Shape shape : shapes) {
            Series rate = rates.get(shape.name());
            System.out.println(Bench.format("%-8s %11.0f %9.0f %9.0f %9.0f %10.0f %8.2f  %s", shape.name(), rate.median(),
                    rate.min(), rate.max(), requests.get(shape.name()).median(), statements.get(shape.name()).median(),
                    rate.median() / home, shape.batch() == 0 ? "home?unread=true&limit=100, Link next"
                            : "ids n=" + shape.idsPage() + ", contents of " + shape.batch()));
        }
        System.out.println(Bench.format("(medians over %d rounds of one sync each; a sync is one client, one request at a time; "
                + "SQL stmts: MariaDB Questions during the sync)", rounds));
        double ratio = rates.get("nnw").median() / home;
        System.out.println(Bench.format("target: nnw >= %.2f of home: %.2f %s", TARGET, ratio,
                errors > 0 ? "NOT MET (incomplete syncs)" : ratio >= TARGET ? "met" : "NOT MET"));
        System.out.println(Bench.format("greader-sync: %.0f items/s vs baseline %.0f items/s = %.2f", rates.get("nnw").median(),
                home, ratio));
        return errors;
    }

    /** The app's side: plain HTTP/1.1 on one connection, each answer parsed as an app parses it. */
    private record Client(HttpClient http, JsonMapper json, String base, JdbcTemplate jdbc) {

        Sync reader(String user, String secret, Shape shape) throws IOException, InterruptedException {
            long started = System.nanoTime();
            int calls = 0;
            // Sign-in is before the sync: an app has its Auth from setting the account up.
            String auth = "GoogleLogin auth=" + clientLogin(user, secret);
            long startedSync = System.nanoTime();
            long questions = questions();
            List<String> ids = new ArrayList<>();
            String idsUrl = base + "/reader/api/0/stream/items/ids?n=" + shape.idsPage() + "&output=json&s=" + enc(READING_LIST)
                    + "&xt=" + enc(READ);
            String continuation = "";
            do {
                JsonNode page = json.readTree(send(HttpRequest.newBuilder(URI.create(idsUrl
                        + (continuation.isEmpty() ? "" : "&c=" + enc(continuation)))).header("Authorization", auth).GET()));
                calls++;
                page.path("itemRefs").forEach(ref -> ids.add(ref.path("id").asString()));
                continuation = page.path("continuation").asString("");
            } while (!continuation.isEmpty() && calls < 1_000);
            String token = new String(send(HttpRequest.newBuilder(URI.create(base + "/reader/api/0/token"))
                    .header("Authorization", auth).GET()), StandardCharsets.UTF_8).strip();
            calls++;
            Set<String> read = new HashSet<>();
            int items = 0;
            for (int from = 0; from < ids.size(); from += shape.batch()) {
                StringBuilder body = new StringBuilder(64 + shape.batch() * 52).append("T=").append(token).append("&output=json");
                for (String id : ids.subList(from, Math.min(ids.size(), from + shape.batch()))) {
                    body.append("&i=").append(LONG_PREFIX).append(String.format(Locale.ROOT, "%016x", Long.parseLong(id)));
                }
                JsonNode answer = json.readTree(send(HttpRequest.newBuilder(URI.create(base + "/reader/api/0/stream/items/contents"))
                        .header("Authorization", auth).header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString()))));
                calls++;
                for (JsonNode item : answer.path("items")) {
                    items++;
                    String longId = item.path("id").asString();
                    read.add(Long.toString(Long.parseUnsignedLong(longId.substring(LONG_PREFIX.length()), 16)));
                }
            }
            double seconds = (System.nanoTime() - startedSync) / 1e9;
            checkTime(started);
            return new Sync(items, seconds, calls, questions() - questions - 1, read);
        }

        Sync home(String secret) throws IOException, InterruptedException {
            long started = System.nanoTime();
            long questions = questions();
            String next = base + "/api/v1/timelines/home?unread=true&limit=100";
            Set<String> read = new HashSet<>();
            int items = 0;
            int calls = 0;
            while (next != null && calls < 1_000) {
                HttpResponse<byte[]> answer = exchange(HttpRequest.newBuilder(URI.create(next))
                        .header("Authorization", "Bearer " + secret).GET());
                calls++;
                JsonNode page = json.readTree(answer.body());
                if (page.isEmpty()) {
                    break;
                }
                for (JsonNode item : page) {
                    items++;
                    read.add(item.path("id").asString());
                }
                next = answer.headers().allValues("Link").stream().map(NEXT::matcher).filter(Matcher::find)
                        .map(m -> m.group(1)).findFirst().orElse(null);
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            checkTime(started);
            return new Sync(items, seconds, calls, questions() - questions - 1, read);
        }

        private String clientLogin(String user, String secret) throws IOException, InterruptedException {
            String answer = new String(send(HttpRequest.newBuilder(URI.create(base + "/accounts/ClientLogin"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("Email=" + user + "&Passwd=" + enc(secret)))), StandardCharsets.UTF_8);
            return answer.lines().filter(line -> line.startsWith("Auth=")).findFirst().orElseThrow().substring(5);
        }

        private byte[] send(HttpRequest.Builder request) throws IOException, InterruptedException {
            return exchange(request).body();
        }

        private HttpResponse<byte[]> exchange(HttpRequest.Builder request) throws IOException, InterruptedException {
            HttpResponse<byte[]> answer = http.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofByteArray());
            if (answer.statusCode() != 200) {
                throw new IllegalStateException(answer.request().method() + " " + answer.uri() + ": " + answer.statusCode() + " "
                        + new String(answer.body(), StandardCharsets.UTF_8));
            }
            return answer;
        }

        /** Statements MariaDB has been sent so far (this one included; hence the {@code - 1} after). */
        private long questions() {
            return jdbc.queryForObject("SHOW GLOBAL STATUS LIKE 'Questions'", (rs, row) -> rs.getLong(2));
        }

        private static void checkTime(long started) {
            if (System.nanoTime() - started > SYNC_LIMIT.toNanos()) {
                throw new IllegalStateException("a sync took longer than " + SYNC_LIMIT);
            }
        }
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
