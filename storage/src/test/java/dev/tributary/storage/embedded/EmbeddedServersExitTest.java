package dev.tributary.storage.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded servers die with their JVM: a server found dead while the JVM exits is not started
 * again (such a Redis was left running after CI's test JVMs, parented to init, one per fork).
 */
class EmbeddedServersExitTest {

    @TempDir
    Path dir;

    @Test
    void aRedisFoundDeadWhileTheJvmExitsIsNotStartedAgain() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process node = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                ExitingNode.class.getName(), dir.resolve("data").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("node.log").toFile()).start();
        boolean exited = node.waitFor(2, TimeUnit.MINUTES);
        String output = Files.readString(dir.resolve("node.log"), StandardCharsets.UTF_8);
        Matcher redis = Pattern.compile("(?m)^redis (\\d+)$").matcher(output);
        assertThat(redis.find()).as(output).isTrue();
        int port = Integer.parseInt(redis.group(1));
        try {
            assertThat(exited).as(output).isTrue();
            assertThat(output).as("the round ran after Redis was stopped").contains("redis stopped by its own hook", "supervised");
            assertThat(LoopbackPorts.accepting(port)).as("a Redis on port %d outlived its JVM:%n%s", port, output).isFalse();
        } finally {
            node.destroyForcibly();
            endLeftover(port);
        }
    }

    /** A failed run's orphan: ended by its PID, found by the address Redis names itself by. */
    private static void endLeftover(int port) {
        String address = "127.0.0.1:" + port;
        ProcessHandle.allProcesses()
                .filter(process -> process.info().commandLine().orElse("").contains("redis-server")
                        && process.info().commandLine().orElse("").contains(address))
                .forEach(ProcessHandle::destroy);
    }
}
