package dev.tributary.pubsub.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.TreeMap;

/**
 * A benchmark's figures as {@code bench/results/NAME.properties}, the input of the capacity model
 * ({@code ./bench/run capacity}): a re-run benchmark replaces its file, so the model follows the costs.
 */
public final class BenchResults {

    private final String name;
    private final Map<String, String> figures = new TreeMap<>();

    public BenchResults(String name) {
        this.name = name;
    }

    /** A figure; one that is not a number (a scenario this run left out) is not written, so the file keeps the earlier one. */
    public BenchResults put(String key, double value) {
        if (Double.isFinite(value)) {
            figures.put(key, String.format(java.util.Locale.ROOT, "%.4f", value));
        }
        return this;
    }

    public BenchResults put(String key, String value) {
        figures.put(key, value);
        return this;
    }

    /** Writes the file (under the working directory, the repository root when run by {@code bench/run}). */
    public void write() {
        Path file = Path.of("bench", "results", name + ".properties");
        keepUnmeasured(file);
        StringBuilder text = new StringBuilder("# ").append(name).append(" benchmark, ")
                .append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append(", load average at the end ")
                .append(loadAverage()).append('\n');
        figures.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
            System.out.println("figures written to " + file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Figures of the file that this run did not measure stay (from a run of other scenarios, say);
     * what this run measured replaces them. The header names the last run only.
     */
    private void keepUnmeasured(Path file) {
        if (!Files.isRegularFile(file)) {
            return;
        }
        java.util.Properties earlier = new java.util.Properties();
        try (var reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            earlier.load(reader);
        } catch (IOException e) {
            return;
        }
        earlier.stringPropertyNames().forEach(key -> figures.putIfAbsent(key, earlier.getProperty(key)));
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
