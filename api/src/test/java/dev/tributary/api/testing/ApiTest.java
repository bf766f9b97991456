package dev.tributary.api.testing;

import dev.tributary.TributaryApplication;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * An integration test of the API over real HTTP against the whole app (embedded MariaDB and
 * Redis). Every test class with exactly this annotation shares one cached application context;
 * add properties only when a test needs different settings, since each variant boots again.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(classes = TributaryApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.address=127.0.0.1", "tributary.crawler.allow-private=127.0.0.0/8"})
public @interface ApiTest {
}
