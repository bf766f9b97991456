package dev.tributary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.tributary.storage.embedded.DatabaseUnreachableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** External mode with a database that is not there: start-up fails fast with one line, no stack trace. */
@ExtendWith(OutputCaptureExtension.class)
class UnreachableDatabaseStartupTest {

    @Test
    void startupFailsWithTheUrlAndTheCauseAndNoStackTrace(CapturedOutput output) throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        String url = "jdbc:mysql://127.0.0.1:" + closedPort + "/tributary?user=app&password=hunter2";

        assertThatThrownBy(() -> new SpringApplicationBuilder(TributaryApplication.class)
                .properties("spring.datasource.url=" + url, "spring.data.redis.url=redis://127.0.0.1:" + closedPort,
                        "server.port=0")
                .run())
                .isInstanceOf(DatabaseUnreachableException.class);

        String own = ownEvents(output.toString());
        assertThat(own).contains("Cannot reach the database at jdbc:mysql://127.0.0.1:" + closedPort
                + "/tributary?user=app&password=***: Connection refused");
        assertThat(own).doesNotContain("\tat ").doesNotContain("Embedded MariaDB");
        assertThat(output).doesNotContain("hunter2");
    }

    /** A log line's start: time, level, pid, application, then the thread's name (its last 15 characters). */
    private static final Pattern LOG_EVENT = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}T\\S+\\s+[A-Z]+\\s+\\d+ --- \\[[^\\]]*] \\[([^\\]]*)]");

    /**
     * The output without the log events of other threads, stack traces included: the output is the
     * whole JVM's, where another test's server, closing, may still log a request it was handed.
     */
    private static String ownEvents(String output) {
        String me = Thread.currentThread().getName();
        StringBuilder own = new StringBuilder();
        boolean mine = true;
        for (String line : output.split("\n")) {
            Matcher event = LOG_EVENT.matcher(line);
            if (event.find()) {
                String thread = event.group(1).strip();
                mine = !thread.isEmpty() && me.endsWith(thread);
            }
            if (mine) {
                own.append(line).append('\n');
            }
        }
        return own.toString();
    }
}
