package dev.tributary.crawler.websub;

import java.net.URI;
import java.util.Map;

/** Sends subscription requests to hubs (a form POST behind the crawler's SSRF guard and limits). */
public interface HubClient {

    /** Result of a hub request: the status it answered, or why it could not be asked. */
    record Answer(int status, String detail) {

        public boolean accepted() {
            return status >= 200 && status < 300;
        }
    }

    Answer post(URI hub, Map<String, String> form);
}
