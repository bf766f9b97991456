package dev.tributary.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * Connections read through a 2 KB buffer ({@code tributary.api.connection-read-buffer}), a quarter
 * of Tomcat's default: headers and bodies many times its size still arrive whole.
 */
@ApiTest
class ConnectionReadBufferApiTest {

    @LocalServerPort int port;
    @Autowired WebServerApplicationContext context;
    private ApiClient api;
    private TestUser alice;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        alice = api.newUser("buffer");
    }

    @Test
    void theConnectorReadsThroughTheConfiguredBuffer() {
        TomcatWebServer server = (TomcatWebServer) context.getWebServer();
        assertThat(String.valueOf(server.getTomcat().getConnector().getProperty("socket.appReadBufSize"))).isEqualTo("2048");
    }

    @Test
    void headersOfThreeBuffersArriveWhole() {
        HttpRequest.Builder request = api.builder("/api/v1/me", alice.token()).header("X-Padding", "p".repeat(6_000)).GET();
        ApiResponse me = api.send(request);
        assertThat(me.status()).isEqualTo(200);
        assertThat(me.json().path("username").asString()).isEqualTo(alice.username());
    }

    @Test
    void aBodyOfAHundredBuffersArrivesWhole() {
        String body = " ".repeat(200_000) + "{\"name\": \"padded " + "x".repeat(50) + "\"}";
        ApiResponse created = api.post("/api/v1/folders", alice.token(), body);
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().path("name").asString()).isEqualTo("padded " + "x".repeat(50));
    }
}
