package dev.tributary.api.web;

/** Field names as clients see them: the Java names of request records, in snake_case. */
final class JsonNames {

    private JsonNames() {
    }

    static String snakeCase(String javaName) {
        StringBuilder out = new StringBuilder(javaName.length() + 4);
        for (int i = 0; i < javaName.length(); i++) {
            char c = javaName.charAt(i);
            if (Character.isUpperCase(c)) {
                out.append('_').append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
