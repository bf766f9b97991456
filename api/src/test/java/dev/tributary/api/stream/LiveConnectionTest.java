package dev.tributary.api.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.tomcat.util.net.AbstractEndpoint.Handler.SocketState;
import org.apache.tomcat.util.net.SocketEvent;
import org.junit.jupiter.api.Test;

/** A taken-over connection's states apart from Tomcat's I/O (which {@code LiveConnectionApiTest} drives for real). */
class LiveConnectionTest {

    private static final byte[] EVENT = ":heartbeat\n\n".getBytes(StandardCharsets.UTF_8);

    @Test
    void aConnectionEndedBeforeTomcatHandsItOverFailsItsWritesAtOnceAndClosesAtItsFirstDispatch() {
        LiveConnection connection = new LiveConnection();
        connection.end();
        connection.end(); // a second end is nothing

        assertThatThrownBy(() -> connection.write(EVENT)).isInstanceOf(IOException.class);
        assertThat(connection.upgradeDispatch(SocketEvent.OPEN_READ)).isEqualTo(SocketState.CLOSED);
    }

    @Test
    void onlyReadAndWriteEventsKeepItOpen() {
        LiveConnection connection = new LiveConnection();
        assertThat(connection.upgradeDispatch(SocketEvent.OPEN_READ)).as("no socket yet: nothing to read").isEqualTo(SocketState.UPGRADED);
        assertThat(connection.upgradeDispatch(SocketEvent.OPEN_WRITE)).isEqualTo(SocketState.UPGRADED);
        for (SocketEvent ending : new SocketEvent[] {SocketEvent.STOP, SocketEvent.DISCONNECT, SocketEvent.ERROR,
                SocketEvent.TIMEOUT, SocketEvent.CONNECT_FAIL}) {
            assertThat(new LiveConnection().upgradeDispatch(ending)).as(ending.name()).isEqualTo(SocketState.CLOSED);
        }
    }
}
