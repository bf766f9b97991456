package dev.tributary.crawler.testing;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link FeedServer} for tests. On a static field
 * ({@code @RegisterExtension static final FeedServerExtension feeds = new FeedServerExtension();})
 * it runs from before the class's first test to after its last, shared, so each test serves its
 * feeds at paths of its own; on an instance field each test gets a server of its own, for tests
 * that assert on every request the server got.
 */
public final class FeedServerExtension implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {

    private FeedServer server;
    private boolean perTest;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = FeedServer.start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        // JUnit calls back before all only for an extension on a static field.
        if (server == null) {
            server = FeedServer.start();
            perTest = true;
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (perTest) {
            stop();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            stop();
        }
    }

    /** See {@link FeedServer#url}. */
    public URI url(String path) {
        return running().url(path);
    }

    /** See {@link FeedServer#port}. */
    public int port() {
        return running().port();
    }

    /** See {@link FeedServer#feed(String, String)}. */
    public FeedServer feed(String path, String body) {
        return running().feed(path, body);
    }

    /** See {@link FeedServer#feed(String, String, String, Map)}. */
    public FeedServer feed(String path, String body, String contentType, Map<String, String> headers) {
        return running().feed(path, body, contentType, headers);
    }

    /** See {@link FeedServer#respond}. */
    public FeedServer respond(String path, int status, Map<String, String> headers, String body) {
        return running().respond(path, status, headers, body);
    }

    /** See {@link FeedServer#redirect}. */
    public FeedServer redirect(String path, int status, String location) {
        return running().redirect(path, status, location);
    }

    /** See {@link FeedServer#requests(String)}. */
    public List<FeedServer.Request> requests(String path) {
        return running().requests(path);
    }

    /** See {@link FeedServer#requests()}. */
    public List<FeedServer.Request> requests() {
        return running().requests();
    }

    private FeedServer running() {
        if (server == null) {
            throw new IllegalStateException("the feed server runs only while tests run");
        }
        return server;
    }

    private void stop() {
        server.close();
        server = null;
    }
}
