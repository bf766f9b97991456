package dev.tributary;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The Tributary service: one artifact whose {@code tributary.roles} say what a node runs. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class TributaryApplication {

    public static void main(String[] args) {
        SpringApplication.run(TributaryApplication.class, args);
    }
}
