package dev.tributary.api.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The judge of the API tests' answers: what it lets through and what it refuses. */
class ResponseContractTest {

    private static final String DOCUMENT = """
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
             "paths": {
               "/api/v1/things/{id}": {"get": {"operationId": "getThing", "responses": {
                 "200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
                 "404": {"$ref": "#/components/responses/NotFound"}}}},
               "/api/v1/things/export.opml": {"get": {"operationId": "export", "responses": {
                 "200": {"description": "ok", "content": {"text/x-opml": {"schema": {"type": "string"}}}}}}},
               "/api/v1/things": {"get": {"operationId": "listThings", "responses": {
                 "200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array",
                   "items": {"$ref": "#/components/schemas/Thing"}}}}}}}}},
             "components": {
               "schemas": {
                 "Thing": {"type": "object", "required": ["id", "title"], "additionalProperties": false, "properties": {
                   "id": {"type": "string"}, "title": {"type": ["string", "null"]},
                   "at": {"type": "string", "format": "date-time"}}},
                 "Problem": {"type": "object", "required": ["status"], "properties": {"status": {"type": "integer"}}}},
               "responses": {"NotFound": {"description": "nf", "content": {"application/problem+json": {
                 "schema": {"$ref": "#/components/schemas/Problem"}}}}}}}
            """;

    private final ResponseContract contract = new ResponseContract(DOCUMENT);

    @Test
    void aConformingAnswerPasses() {
        assertThat(check("GET", "/api/v1/things/1", 200, "application/json", "{\"id\": \"1\", \"title\": null}")).isEmpty();
        assertThat(check("GET", "/api/v1/things", 200, "application/json;charset=UTF-8",
                "[{\"id\": \"1\", \"title\": \"a\", \"at\": \"2026-11-23T18:24:44.768157Z\"}]")).isEmpty();
        assertThat(check("GET", "/api/v1/things/2", 404, "application/problem+json", "{\"status\": 404}")).isEmpty();
        assertThat(check("HEAD", "/api/v1/things/1", 200, "application/json", "")).as("HEAD is GET without a body").isEmpty();
    }

    @Test
    void anUndeclaredStatusIsAViolationNamingTheOperation() {
        assertThat(check("GET", "/api/v1/things/1", 409, "application/problem+json", "{\"status\": 409}"))
                .singleElement().asString().contains("GET /api/v1/things/{id} (getThing) answered 409", "200, 404");
    }

    @Test
    void aBodyTheSchemaRefusesIsAViolation() {
        assertThat(check("GET", "/api/v1/things/1", 200, "application/json", "{\"id\": 1, \"title\": null}"))
                .as("a number for a string").anySatisfy(v -> assertThat(v).contains("getThing", "200", "id"));
        assertThat(check("GET", "/api/v1/things/1", 200, "application/json", "{\"id\": \"1\"}")).as("a required field left out")
                .anySatisfy(v -> assertThat(v).contains("title"));
        assertThat(check("GET", "/api/v1/things/1", 200, "application/json", "{\"id\": \"1\", \"title\": null, \"extra\": 1}"))
                .as("a field the document does not know").anySatisfy(v -> assertThat(v).contains("extra"));
        assertThat(check("GET", "/api/v1/things", 200, "application/json", "[{\"id\": \"1\", \"title\": \"a\", \"at\": \"yesterday\"}]"))
                .as("a format, through an array's items").anySatisfy(v -> assertThat(v).contains("at"));
        assertThat(check("GET", "/api/v1/things/2", 404, "application/problem+json", "{\"status\": \"404\"}"))
                .as("through a referenced response").anySatisfy(v -> assertThat(v).contains("status"));
    }

    @Test
    void anUndeclaredContentTypeIsAViolation() {
        assertThat(check("GET", "/api/v1/things/1", 200, "text/html", "<p>hi</p>")).singleElement().asString()
                .contains("text/html", "application/json");
        assertThat(check("GET", "/api/v1/things/1", 200, "application/json", "not json")).singleElement().asString()
                .contains("not JSON");
    }

    @Test
    void theLiteralPathWinsOverTheTemplateAndOnlyTheDocumentedApiIsJudged() {
        assertThat(check("GET", "/api/v1/things/export.opml", 200, "text/x-opml", "<opml/>")).isEmpty();
        assertThat(check("GET", "/fever/", 200, "text/html", "anything")).isEmpty();
        assertThat(check("GET", "/api/v1/unknown", 404, "application/problem+json", "{}")).as("the stack's 404").isEmpty();
        assertThat(check("DELETE", "/api/v1/things", 405, "application/problem+json", "{}")).as("the stack's 405").isEmpty();
    }

    @Test
    void headersBeyondHttpsOwnMustBeDeclaredAndRequiredOnesSent() {
        ResponseContract judge = new ResponseContract("""
                {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
                 "paths": {"/api/v1/things": {"get": {"operationId": "listThings", "responses": {
                   "200": {"description": "ok", "headers": {
                       "ETag": {"required": true, "schema": {"type": "string"}},
                       "RateLimit-Remaining": {"$ref": "#/components/headers/RateLimit-Remaining"}},
                     "content": {"application/json": {"schema": {"type": "array"}}}}}}}},
                 "components": {"headers": {"RateLimit-Remaining": {"schema": {"type": "integer"}}}}}
                """);
        URI uri = URI.create("http://127.0.0.1/api/v1/things");
        Map<String, List<String>> conforming = Map.of("etag", List.of("\"1\""), "ratelimit-remaining", List.of("7"),
                "Content-Type", List.of("application/json"), "Date", List.of("Mon, 23 Nov 2026 21:00:00 GMT"),
                "Access-Control-Allow-Origin", List.of("*"), "X-Content-Type-Options", List.of("nosniff"));

        assertThat(judge.violations("GET", uri, 200, conforming, "application/json", "[]"))
                .as("declared headers in any case, through a reference; HTTP's own need no declaring").isEmpty();
        assertThat(judge.violations("GET", uri, 200, with(conforming, "Link", "</next>; rel=\"next\""), "application/json", "[]"))
                .singleElement().asString().contains("listThings", "sent the header Link", "ETag, RateLimit-Remaining");
        assertThat(judge.violations("GET", uri, 200, Map.of("RateLimit-Remaining", List.of("7")), "application/json", "[]"))
                .singleElement().asString().contains("left out the header ETag");
        assertThat(judge.violations("GET", uri, 200, with(conforming, "RateLimit-Remaining", "soon"), "application/json", "[]"))
                .singleElement().asString().contains("RateLimit-Remaining", "integer");
        assertThat(judge.violations("GET", uri, 200, "application/json", "[]")).as("headers not given: not judged").isEmpty();
    }

    private static Map<String, List<String>> with(Map<String, List<String>> headers, String name, String value) {
        Map<String, List<String>> copy = new java.util.HashMap<>(headers);
        copy.keySet().removeIf(name::equalsIgnoreCase);
        copy.put(name, List.of(value));
        return copy;
    }

    private java.util.List<String> check(String method, String path, int status, String contentType, String body) {
        return contract.violations(method, URI.create("http://127.0.0.1" + path), status, contentType, body);
    }
}
