package dev.tributary.api.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The JVM's own costs during a measured window: every stop-the-world GC pause (from the
 * collectors' notifications, so the longest one is known, not only their sum) and the bytes
 * allocated by all threads. The load generator shares the JVM, so its allocation is included.
 */
final class JvmCounters {

    /** One window's figures. */
    record Window(double seconds, int pauses, double pauseMillis, double maxPauseMillis, double allocatedMegabytes,
            String collectors, java.util.Map<String, Double> cpu) {

        /** CPU milliseconds of one program in the window ("app", "mariadb", "redis", "java" for a load process, "total"). */
        double cpuMillis(String program) {
            return cpu.getOrDefault(program, 0.0);
        }

        double allocationMegabytesPerSecond() {
            return seconds > 0 ? allocatedMegabytes / seconds : Double.NaN;
        }
    }

    private record Pause(long endedNanos, double millis) {}

    private final List<Pause> pauses = new ArrayList<>();
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private long startedNanos;
    private long startedBytes;
    private java.util.Map<String, Double> startedCpu = java.util.Map.of();

    JvmCounters() {
        NotificationListener listener = (notification, handback) -> {
            if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
                var info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
                if (isPause(info.getGcName())) {
                    synchronized (pauses) {
                        pauses.add(new Pause(System.nanoTime(), info.getGcInfo().getDuration()));
                    }
                }
            }
        };
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) collector).addNotificationListener(listener, null, null);
        }
    }

    /**
     * Whether a collector bean's events are pauses: G1's and Parallel's young and old collections
     * and ZGC's "Pauses" beans are; ZGC's "Cycles" and G1's "Concurrent GC" report concurrent work.
     */
    static boolean isPause(String collector) {
        String name = collector.toLowerCase(Locale.ROOT);
        return !name.contains("cycles") && !name.contains("concurrent");
    }

    /** The collector in use, as the JVM names its beans. */
    static String collectors() {
        return String.join(" + ", ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName).toList());
    }

    /** Starts a window. */
    void start() {
        startedNanos = System.nanoTime();
        startedBytes = threads.getTotalThreadAllocatedBytes();
        startedCpu = dev.tributary.pubsub.bench.ProcessCpu.snapshot();
    }

    /** Ends the window started last and returns its figures. */
    Window stop() {
        long now = System.nanoTime();
        long bytes = threads.getTotalThreadAllocatedBytes() - startedBytes;
        int count = 0;
        double sum = 0;
        double max = 0;
        synchronized (pauses) {
            for (Pause pause : pauses) {
                if (pause.endedNanos() >= startedNanos && pause.endedNanos() <= now) {
                    count++;
                    sum += pause.millis();
                    max = Math.max(max, pause.millis());
                }
            }
            pauses.removeIf(pause -> pause.endedNanos() <= now);
        }
        var cpu = dev.tributary.pubsub.bench.ProcessCpu.spent(startedCpu, dev.tributary.pubsub.bench.ProcessCpu.snapshot());
        return new Window((now - startedNanos) / 1e9, count, sum, max, bytes / 1e6, collectors(), cpu);
    }

    /**
     * A window that starts after {@code warmup} and lasts {@code measured}, timed on a thread of its
     * own beside a load run started at the same moment.
     */
    java.util.concurrent.CompletableFuture<Window> window(java.time.Duration warmup, java.time.Duration measured) {
        var result = new java.util.concurrent.CompletableFuture<Window>();
        Thread.ofVirtual().name("jvm-window").start(() -> {
            // A clock for the window's edges, not a synchronisation.
            waitFor(warmup);
            start();
            waitFor(measured);
            result.complete(stop());
        });
        return result;
    }

    private static void waitFor(java.time.Duration span) {
        long until = System.nanoTime() + span.toNanos();
        for (long left = span.toNanos(); left > 0; left = until - System.nanoTime()) {
            java.util.concurrent.locks.LockSupport.parkNanos(left);
        }
    }

    /** Heap in use after two full collections: what live objects hold. */
    static long liveHeapBytes() {
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return heap.getUsed();
    }
}
