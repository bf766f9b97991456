package dev.tributary.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.springdoc.core.service.OpenAPIService;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * {@code /v3/api-docs} is built once, in one language: springdoc builds (and keeps) a copy per
 * reader's locale, tens of seconds of CPU under load, so each new {@code Accept-Language} an anonymous
 * client sent used to cost the server a whole build.
 */
@ApiTest
class OpenApiDocumentBuildTest {

    @LocalServerPort int port;
    @Autowired OpenAPIService documents;

    @Test
    void anyAcceptLanguageIsServedTheOneDocumentBuilt() {
        ApiClient api = new ApiClient(port);
        // Built at start-up; on a loaded machine that may still be under way when this runs.
        ApiResponse english = api.send(api.builder("/v3/api-docs", null).timeout(Duration.ofMinutes(3)).GET());
        ApiResponse german = api.send(api.builder("/v3/api-docs", null).timeout(Duration.ofMinutes(3))
                .header("Accept-Language", "de-CH, fr;q=0.5").GET());

        assertThat(german.status()).isEqualTo(200);
        assertThat(german.body()).isEqualTo(english.body());
        assertThat(documents.getCachedOpenAPI(Locale.ENGLISH)).isNotNull();
        assertThat(documents.getCachedOpenAPI(Locale.forLanguageTag("de-CH"))).as("a copy built for de-CH").isNull();
    }
}
