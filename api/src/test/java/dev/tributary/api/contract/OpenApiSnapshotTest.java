package dev.tributary.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code docs/openapi.json}, the committed copy of {@code /v3/api-docs} that clients are generated
 * from (GeneratedClientTest's client among them), is the served document: a change to the contract
 * shows in the diff of the change, and a stale copy fails the build. Refresh it with {@code ./mvnw -o test
 * -pl api -am -Dtest=OpenApiSnapshotTest -Dsurefire.failIfNoSpecifiedTests=false -Dopenapi.snapshot.write=true}.
 */
@ApiTest
class OpenApiSnapshotTest {

    /** Relative to the api module, where surefire runs the tests. */
    static final Path SNAPSHOT = Path.of("..", "docs", "openapi.json");
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    @LocalServerPort int port;

    @Test
    void theCommittedDocumentIsTheServedOne() throws IOException {
        ApiResponse served = new ApiClient(port).get("/v3/api-docs", null);
        assertThat(served.status()).isEqualTo(200);
        String canonical = canonical(served.body());

        if (Boolean.getBoolean("openapi.snapshot.write")) {
            Files.writeString(SNAPSHOT, canonical, StandardCharsets.UTF_8);
        }
        String committed = Files.exists(SNAPSHOT) ? Files.readString(SNAPSHOT, StandardCharsets.UTF_8) : "";
        assertThat(committed).as("""
                docs/openapi.json is not the document the app serves. If the change to the contract is meant, refresh it:
                  ./mvnw -o test -pl api -am -Dtest=OpenApiSnapshotTest -Dsurefire.failIfNoSpecifiedTests=false \
                -Dopenapi.snapshot.write=true
                and commit it with the change""").isEqualTo(canonical);
    }

    /** The document with every object's keys sorted: one text per document, whatever order springdoc builds it in. */
    static String canonical(String document) {
        return JSON.writeValueAsString(sorted(JSON.readTree(document))) + "\n";
    }

    private static JsonNode sorted(JsonNode node) {
        if (node instanceof ObjectNode object) {
            List<String> names = new ArrayList<>(object.propertyNames());
            names.sort(null);
            ObjectNode copy = JSON.createObjectNode();
            names.forEach(name -> copy.set(name, sorted(object.get(name))));
            return copy;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = JSON.createArrayNode();
            array.forEach(element -> copy.add(sorted(element)));
            return copy;
        }
        return node;
    }
}
