package dev.tributary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

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

        assertThat(output).contains("Cannot reach the database at jdbc:mysql://127.0.0.1:" + closedPort
                + "/tributary?user=app&password=***: Connection refused");
        assertThat(output).doesNotContain("hunter2").doesNotContain("\tat ").doesNotContain("Embedded MariaDB");
    }
}
