package dev.tributary.pubsub.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * CPU time (user + system, from the kernel's per-process accounting in {@code /proc/PID/stat}) of
 * every process a benchmark step involves: this JVM (the app and, for a baseline, its JDBC client)
 * and the embedded servers it started (MariaDB, Redis, each of a cluster's nodes), grouped by the
 * program's name. Unlike a rate, a CPU figure hardly moves with what else the machine runs.
 */
public final class ProcessCpu {

    /** Clock ticks per second of {@code /proc}'s counters ({@code getconf CLK_TCK}: 100 on Linux). */
    private static final double TICKS_PER_SECOND = 100.0;

    /** How often, and how many times in a row, the compilers' CPU must be seen unchanged to count as idle. */
    private static final long SAMPLE_MILLIS = 100;
    private static final int IDLE_SAMPLES = 3;

    /** The benchmark's own thread, reported apart from the app. */
    public static final String DRIVER = "driver";

    /**
     * The part of "app" this JVM's JIT compiler threads spent, also reported on its own: compiling
     * is the JVM learning the code once, not a cost of each row, so a figure can be read without it.
     */
    public static final String JIT = "jit";

    /** Entries of a snapshot that are not a process's own CPU, so never added into "total". */
    public static final Set<String> APART = Set.of(DRIVER, JIT);

    private ProcessCpu() {
    }

    /**
     * CPU milliseconds so far per program: "app" for this JVM but the calling thread, else the
     * child's command name. The calling thread is the benchmark's driver (it publishes, then polls
     * for the end): its CPU is "driver", apart, and left out of "total". "jit" repeats the JIT
     * compiler threads' part of "app" (so it is not added to "total" again).
     */
    public static Map<String, Double> snapshot() {
        Map<String, Double> millis = new LinkedHashMap<>();
        // A virtual thread has no CPU time of its own to read (-1): its carrier's belongs to the app.
        double driver = driverMillis();
        millis.put("app", cpuMillis(ProcessHandle.current().pid()) - driver);
        millis.put(DRIVER, driver);
        millis.put(JIT, compilerMillis());
        ProcessHandle.current().descendants().forEach(child -> {
            String name = child.info().command().map(command -> Path.of(command).getFileName().toString())
                    .map(ProcessCpu::program).orElse("other");
            millis.merge(name, cpuMillis(child.pid()), Double::sum);
        });
        return millis;
    }

    /** The calling thread's CPU milliseconds so far (0 on a virtual thread). */
    public static double driverMillis() {
        return Thread.currentThread().isVirtual() ? 0
                : Math.max(0, java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime()) / 1e6;
    }

    /** {@code spent} with work the driver did for the app (a publish) counted as the app's. */
    public static Map<String, Double> withAppWork(Map<String, Double> spent, double driverAppMillis) {
        Map<String, Double> moved = new LinkedHashMap<>(spent);
        moved.merge("app", driverAppMillis, Double::sum);
        moved.merge("total", driverAppMillis, Double::sum);
        moved.merge(DRIVER, -driverAppMillis, Double::sum);
        return moved;
    }

    /** What each program spent between two snapshots, and "total" (neither "driver" nor "jit" added in), in milliseconds. */
    public static Map<String, Double> spent(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> spent = new LinkedHashMap<>();
        double total = 0;
        for (Map.Entry<String, Double> entry : after.entrySet()) {
            double used = entry.getValue() - before.getOrDefault(entry.getKey(), 0.0);
            spent.put(entry.getKey(), used);
            total += APART.contains(entry.getKey()) ? 0 : used;
        }
        spent.put("total", total);
        return spent;
    }

    /**
     * CPU milliseconds so far of this JVM's threads, grouped by their name without digits (the
     * kernel's 15-character thread name: "fanout-", "lettuce-nioEve", "GC Thread#", "C2 CompilerThre").
     */
    public static Map<String, Double> threads() {
        Map<String, Double> millis = new java.util.TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            tasks.forEach(task -> {
                try {
                    String name = Files.readString(task.resolve("comm")).trim().replaceAll("[0-9]+", "");
                    millis.merge(name, cpuMillis(Path.of("/proc/self/task", task.getFileName().toString(), "stat")), Double::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended between listing and reading
                }
            });
        } catch (IOException e) {
            return Map.of();
        }
        return millis;
    }

    /**
     * Waits, at most {@code limit}, until this JVM's JIT compiler threads have been idle for
     * {@link #IDLE_SAMPLES} samples {@link #SAMPLE_MILLIS} apart (their CPU did not move): a step
     * measured right after the previous one's checks and printing otherwise pays for compiling them
     * (2.4 ms of C2 per 1,000 fan-out rows, 2026-11-28). What the step's own code makes the compiler
     * do still counts.
     */
    public static void awaitCompilersIdle(Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        double last = compilerMillis();
        int still = 0;
        while (still < IDLE_SAMPLES && System.nanoTime() - deadline < 0) {
            Bench.park(SAMPLE_MILLIS);
            double now = compilerMillis();
            still = now == last ? still + 1 : 0;
            last = now;
        }
    }

    private static double compilerMillis() {
        return threads().entrySet().stream().filter(thread -> thread.getKey().contains("CompilerThre"))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    private static String program(String file) {
        if (file.startsWith("mariadbd") || file.startsWith("mysqld")) {
            return "mariadb";
        }
        return file.startsWith("redis") ? "redis" : file;
    }

    /** Fields 14 and 15 of /proc/PID/stat, counted after the command name's closing parenthesis. */
    static double cpuMillis(long pid) {
        return cpuMillis(Path.of("/proc", Long.toString(pid), "stat"));
    }

    private static double cpuMillis(Path statFile) {
        try {
            String stat = Files.readString(statFile);
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return ticks * 1000.0 / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return 0; // the process ended between listing and reading
        }
    }
}
