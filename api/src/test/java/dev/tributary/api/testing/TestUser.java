package dev.tributary.api.testing;

/** A registered person in a test, with a personal access token holding both scopes. */
public record TestUser(String id, String username, String password, String token) {

    public long numericId() {
        return Long.parseLong(id);
    }
}
