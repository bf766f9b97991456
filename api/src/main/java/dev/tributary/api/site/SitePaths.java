package dev.tributary.api.site;

/** The web front end's pages that need a signed-in person (the site's security sends others to sign in). */
public final class SitePaths {

    private SitePaths() {
    }

    /** Ant-style patterns of the signed-in pages. */
    public static String[] signedIn() {
        return new String[] {"/", "/sources", "/sources/*", "/items/*", "/people/*", "/groups", "/groups/*", "/settings", "/starred", "/search", "/rules"};
    }
}
