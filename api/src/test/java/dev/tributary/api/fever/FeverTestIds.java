package dev.tributary.api.fever;

import java.util.List;

/** For tests of other packages that compare Fever's answers with the other APIs': a Tributary id as Fever shows it. */
public final class FeverTestIds {

    private FeverTestIds() {
    }

    public static long of(long id) {
        return FeverIds.of(id);
    }

    public static String of(String id) {
        return String.valueOf(FeverIds.of(Long.parseLong(id)));
    }

    public static List<Long> of(List<Long> ids) {
        return FeverIds.of(ids);
    }
}
