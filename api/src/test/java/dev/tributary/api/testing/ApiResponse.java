package dev.tributary.api.testing;

import java.net.http.HttpHeaders;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A response as a test sees it: status, headers and the body, parsed as JSON on demand. */
public record ApiResponse(int status, HttpHeaders headers, String body) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public JsonNode json() {
        return JSON.readTree(body);
    }

    public String header(String name) {
        return headers.firstValue(name).orElse(null);
    }

    public List<String> headers(String name) {
        return headers.allValues(name);
    }

    public String contentType() {
        return header("Content-Type");
    }

    @Override
    public String toString() {
        return status + " " + (body.length() > 500 ? body.substring(0, 500) + "…" : body);
    }
}
