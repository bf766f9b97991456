package dev.tributary.api.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The load generator in a JVM of its own on the same machine ({@code --generator=process}), as wrk
 * runs beside a server: its connections' threads are scheduled by the operating system beside
 * the server's, not queued on the server's own carrier threads behind the requests they wait
 * for, so a paced request is sent and its answer read on time. The parent drives it over the
 * child's standard input and output, one tab-separated line a command and a result.
 */
final class LoadProcess implements AutoCloseable {

    private final Process process;
    private final PrintWriter commands;
    private final BufferedReader results;
    private int generators;

    private LoadProcess(Process process) {
        this.process = process;
        this.commands = new PrintWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8), true);
        this.results = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Starts the generator's JVM with this test classpath. */
    static LoadProcess start() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        try {
            return new LoadProcess(new ProcessBuilder(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                    LoadProcess.class.getName()).redirectError(ProcessBuilder.Redirect.INHERIT).start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A generator in the child sending to {@code server} with these header lines in turn ({@link LoadGenerator}). */
    synchronized Load generator(InetSocketAddress server, List<String> credentials) {
        String name = "g" + generators++;
        try {
            Path file = Files.createTempFile("tributary-load-credentials", ".txt");
            file.toFile().deleteOnExit();
            Files.write(file, credentials);
            ask(String.join("\t", "generator", name, server.getHostString(), Integer.toString(server.getPort()),
                    file.toString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Load() {
            @Override
            public LoadGenerator.Result run(String path, String accept, int connections, Duration warmup, Duration measured,
                    long maxRequests) {
                return runIn(name, path, accept, connections, 0, warmup, measured, maxRequests);
            }

            @Override
            public LoadGenerator.Result runPaced(String path, String accept, int connections, double perSecond,
                    Duration warmup, Duration measured, long maxRequests) {
                if (!(perSecond > 0)) {
                    throw new IllegalArgumentException("a paced run needs a positive rate, not " + perSecond);
                }
                return runIn(name, path, accept, connections, perSecond, warmup, measured, maxRequests);
            }
        };
    }

    private synchronized LoadGenerator.Result runIn(String name, String path, String accept, int connections, double perSecond,
            Duration warmup, Duration measured, long maxRequests) {
        return decode(ask(String.join("\t", "run", name, Integer.toString(connections), Double.toString(perSecond),
                Long.toString(warmup.toNanos()), Long.toString(measured.toNanos()), Long.toString(maxRequests), path, accept)));
    }

    private String ask(String command) {
        commands.println(command);
        try {
            String answer = results.readLine();
            if (answer == null) {
                throw new IllegalStateException("the load generator's process ended");
            }
            if (answer.startsWith("error\t")) {
                throw new IllegalStateException("the load generator failed: " + answer.substring(6));
            }
            return answer;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        commands.println("quit");
        commands.close();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** One result as a line: requests, seconds, I/O errors, reconnects, body bytes, capped, failed statuses, buckets. */
    static String encode(LoadGenerator.Result result) {
        StringBuilder failed = new StringBuilder();
        result.failedStatuses().forEach((status, n) -> failed.append(failed.isEmpty() ? "" : ",").append(status).append(':').append(n));
        return String.join("\t", Long.toString(result.requests()), Double.toString(result.seconds()),
                Long.toString(result.ioErrors()), Long.toString(result.reconnects()), Long.toString(result.bodyBytes()),
                Boolean.toString(result.capped()), failed.isEmpty() ? "-" : failed.toString(),
                result.latencies().count() == 0 ? "-" : result.latencies().buckets());
    }

    static LoadGenerator.Result decode(String line) {
        String[] field = line.split("\t", -1);
        if (field.length != 8) {
            throw new IllegalStateException("not a load result: " + line);
        }
        Map<Integer, Long> failed = new TreeMap<>();
        pairs(field[6], (key, n) -> failed.put(key, n));
        LatencyHistogram latencies = new LatencyHistogram();
        pairs(field[7], latencies::addToBucket);
        return new LoadGenerator.Result(Long.parseLong(field[0]), Double.parseDouble(field[1]), latencies, failed,
                Long.parseLong(field[2]), Long.parseLong(field[3]), Long.parseLong(field[4]), Boolean.parseBoolean(field[5]));
    }

    private interface Pair {
        void accept(int key, long n);
    }

    private static void pairs(String text, Pair each) {
        if (text.equals("-")) {
            return;
        }
        for (String pair : text.split(",")) {
            int colon = pair.indexOf(':');
            each.accept(Integer.parseInt(pair.substring(0, colon)), Long.parseLong(pair.substring(colon + 1)));
        }
    }

    /** The child: reads commands from standard input until {@code quit} or its end, answers each on standard output. */
    public static void main(String[] args) throws IOException {
        Map<String, LoadGenerator> generators = new TreeMap<>();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        for (String line; (line = in.readLine()) != null && !line.equals("quit"); ) {
            String[] field = line.split("\t", -1);
            try {
                out.println(switch (field[0]) {
                    case "generator" -> {
                        List<String> credentials = Files.readAllLines(Path.of(field[4]));
                        generators.put(field[1], new LoadGenerator(
                                new InetSocketAddress(field[2], Integer.parseInt(field[3])), credentials));
                        yield "ok";
                    }
                    case "run" -> {
                        LoadGenerator generator = generators.get(field[1]);
                        int connections = Integer.parseInt(field[2]);
                        double perSecond = Double.parseDouble(field[3]);
                        Duration warmup = Duration.ofNanos(Long.parseLong(field[4]));
                        Duration measured = Duration.ofNanos(Long.parseLong(field[5]));
                        long max = Long.parseLong(field[6]);
                        yield encode(perSecond > 0
                                ? generator.runPaced(field[7], field[8], connections, perSecond, warmup, measured, max)
                                : generator.run(field[7], field[8], connections, warmup, measured, max));
                    }
                    default -> throw new IllegalArgumentException("unknown command " + field[0]);
                });
            } catch (RuntimeException e) {
                out.println("error\t" + e.toString().replace('\n', ' ').replace('\t', ' '));
            }
        }
    }
}
