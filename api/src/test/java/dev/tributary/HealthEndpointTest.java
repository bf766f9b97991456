package dev.tributary;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The management endpoints live on the management port; the public port keeps only the probes. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class HealthEndpointTest {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private HttpResponse<String> get(int onPort, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + onPort + path))
                .header("Accept", "application/json").timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void healthIsUpWithTheDatabaseAndRedisComponents() throws Exception {
        HttpResponse<String> response = get(managementPort, "/actuator/health");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode health = JsonMapper.builder().build().readTree(response.body());
        assertThat(health.path("status").asString()).isEqualTo("UP");
        assertThat(health.path("components").path("db").path("status").asString()).isEqualTo("UP");
        assertThat(health.path("components").path("redis").path("status").asString()).isEqualTo("UP");
        assertThat(health.path("components").path("switches").path("details").path("comments").asString()).isIn("on", "off");
    }

    @Test
    void livenessAndReadinessProbesAnswerOnBothPorts() throws Exception {
        assertThat(get(managementPort, "/actuator/health/liveness").body()).contains("\"status\":\"UP\"");
        assertThat(get(managementPort, "/actuator/health/readiness").body()).contains("\"status\":\"UP\"");
        assertThat(get(port, "/livez").statusCode()).isEqualTo(200);
        assertThat(get(port, "/livez").body()).contains("\"status\":\"UP\"");
        assertThat(get(port, "/readyz").body()).contains("\"status\":\"UP\"");
    }

    @Test
    void prometheusExposesTheServicesMetrics() throws Exception {
        assertThat(get(port, "/livez").statusCode()).as("a request on the public port, to be counted").isEqualTo(200);
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/actuator/prometheus"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("http_server_requests").contains("tributary_").contains("tributary_api_streams")
                .contains("tributary_switch{feature=\"live-streams\"}").contains("tributary_retention_removed_total{job=\"oauth-apps\"}");
    }

    @Test
    void theManagementEndpointsAreNotOnThePublicPort() throws Exception {
        assertThat(managementPort).isNotEqualTo(port);
        assertThat(get(port, "/actuator/prometheus").statusCode()).isIn(401, 404);
        assertThat(get(port, "/actuator/health").statusCode()).isIn(401, 404);
        assertThat(get(port, "/actuator/switches").statusCode()).isIn(401, 404);
    }

    @Test
    void anUnknownActuatorPathIsA404NotAnError() throws Exception {
        assertThat(get(managementPort, "/actuator/nothing-here").statusCode()).isEqualTo(404);
    }
}
