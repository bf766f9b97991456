package dev.tributary.api.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.TributaryApplication;
import dev.tributary.storage.testing.Await;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.springframework.core.env.Environment;

/** The app started as its own JVM on the class path and the test's MariaDB and Redis, for drills. */
record AppNode(Process process, int port, File log) {

    static final Duration BOOT = Duration.ofMinutes(4);

    /** Starts a node with these extra arguments, records it in {@code started}, and waits until it is ready. */
    static AppNode start(Environment env, String name, List<Process> started, String... arguments) throws IOException {
        int http = freePort();
        Path log = Files.createTempFile("tributary-" + name + "-", ".log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), TributaryApplication.class.getName(),
                "--spring.datasource.url=" + env.getRequiredProperty("spring.datasource.url"),
                "--server.address=127.0.0.1", "--server.port=" + http,
                "--management.server.address=127.0.0.1", "--management.server.port=" + freePort()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        // Secrets through the environment, which only the process's owner can read; a command line any local user can.
        builder.environment().put("SPRING_DATASOURCE_USERNAME", env.getRequiredProperty("spring.datasource.username"));
        builder.environment().put("SPRING_DATASOURCE_PASSWORD", env.getProperty("spring.datasource.password", ""));
        builder.environment().put("SPRING_DATA_REDIS_URL", env.getRequiredProperty("spring.data.redis.url"));
        // Every node of a deployment needs the key that sealed the signing keys (docs/security.md): this JVM's.
        builder.environment().put("TRIBUTARY_SECRETS_KEYFILE",
                Path.of(env.getRequiredProperty("tributary.secrets.key-file")).toAbsolutePath().toString());
        Process process = builder.start();
        started.add(process);
        AppNode node = new AppNode(process, http, log.toFile());
        Await.until(name + " node ready (log " + log + ")", BOOT, () -> {
            assertThat(process.isAlive()).as("the %s node exited; see %s", name, log).isTrue();
            return node.answers("/readyz") == 200;
        });
        return node;
    }

    /** Stops each node still running, by SIGTERM, then SIGKILL if it lingers. */
    static void stopAll(List<Process> started) throws InterruptedException {
        for (Process node : started) {
            if (node.isAlive()) {
                node.destroy();
                if (!node.waitFor(30, TimeUnit.SECONDS)) {
                    node.destroyForcibly();
                }
            }
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The status of a GET on the node, or -1 if it does not answer. */
    int answers(String path) {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<Void> answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding());
            return answer.statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
