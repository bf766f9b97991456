package dev.tributary.api.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The shape of the code, checked on every build: the modules point one way (api → crawler →
 * pubsub → storage), no package depends on another in a cycle, other modules use only pubsub's
 * public API (its root package), and only pubsub touches storage: the crawler and the api see
 * pubsub's own types, its façades over storage's transactions, ids and node roles included.
 */
class ArchitectureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.tributary");

    @Test
    void everyModuleIsImported() {
        // Guards the rules below against passing on an empty import (a changed class path).
        for (String module : new String[] {"storage.EntityStore", "pubsub.Publisher", "pubsub.inbox.Inbox",
                "crawler.FeedResolver", "api.account.Accounts"}) {
            assertThat(CLASSES.contain("dev.tributary." + module)).as(module).isTrue();
        }
    }

    @Test
    void modulesPointOneWay() {
        check(layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("api").definedBy("dev.tributary.api..")
                .layer("crawler").definedBy("dev.tributary.crawler..")
                .layer("pubsub").definedBy("dev.tributary.pubsub..")
                .layer("storage").definedBy("dev.tributary.storage..")
                .whereLayer("api").mayNotBeAccessedByAnyLayer()
                .whereLayer("crawler").mayOnlyBeAccessedByLayers("api")
                .whereLayer("pubsub").mayOnlyBeAccessedByLayers("crawler", "api")
                .whereLayer("storage").mayOnlyBeAccessedByLayers("pubsub"));
    }

    @Test
    void noPackageCycles() {
        // Each module's root package is its public API, which its own sub-packages use; cycles
        // are looked for between the sub-packages, across every module.
        check(slices().matching("dev.tributary.(*).(*)..").should().beFreeOfCycles());
    }

    @Test
    void onlyPubsubReachesIntoPubsubsParts() {
        check(noClasses().that().resideOutsideOfPackage("dev.tributary.pubsub..")
                .should().dependOnClassesThat().resideInAPackage("dev.tributary.pubsub.*..")
                .because("pubsub's public API is its root package; inbox, fanout and the rest are its insides"));
    }

    @Test
    void onlyPubsubTouchesStorage() {
        // The root package too: it holds the application and its start-up checks (KnownRoles).
        check(noClasses().that().resideInAnyPackage("dev.tributary", "dev.tributary.crawler..", "dev.tributary.api..")
                .should().dependOnClassesThat().resideInAPackage("dev.tributary.storage..")
                .because("the crawler and the api see pubsub's own types (Writes, NewIds, Roles, People among them), never storage's"));
    }

    private static void check(ArchRule rule) {
        rule.check(CLASSES);
    }
}
