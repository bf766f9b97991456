package dev.tributary.api.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the browser tests find Chromium and its driver: Debian's paths, or
 * {@code TRIBUTARY_CHROMIUM} and {@code TRIBUTARY_CHROMEDRIVER}.
 */
record Chromium(Path binary, Path driver) {

    static Chromium find() {
        return new Chromium(Path.of(env("TRIBUTARY_CHROMIUM", "/usr/bin/chromium")),
                Path.of(env("TRIBUTARY_CHROMEDRIVER", "/usr/bin/chromedriver")));
    }

    /** {@code TRIBUTARY_BROWSER_TESTS=required}: a missing browser fails the tests instead of skipping them. */
    static boolean required() {
        return "required".equalsIgnoreCase(System.getenv("TRIBUTARY_BROWSER_TESTS"));
    }

    boolean present() {
        return Files.isExecutable(binary) && Files.isExecutable(driver);
    }

    String missing() {
        return !Files.isExecutable(binary) ? "no Chromium at " + binary : "no chromedriver at " + driver;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
