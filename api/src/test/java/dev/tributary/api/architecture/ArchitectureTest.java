package dev.tributary.api.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
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
 * public API (its root package), and only pubsub and the api's own account store touch storage
 * beyond the infrastructure every module shares (transactions, ids, node roles).
 */
class ArchitectureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.tributary");

    /** What any module may use of storage: one way to write, ids, and which loops a node runs. */
    private static final String SHARED_STORAGE = "dev\\.tributary\\.storage\\.(Transactions|IdGenerator|NodeRoles)";

    /** The api classes that store the api's own entity kind, accounts. */
    private static final String API_STORAGE_USERS = "dev\\.tributary\\.api\\.account\\.(AccountKinds|Accounts)(\\$.*)?";

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
                .whereLayer("storage").mayOnlyBeAccessedByLayers("pubsub", "crawler", "api"));
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
    void onlyPubsubAndTheAccountStoreTouchStorage() {
        check(noClasses().that().resideInAnyPackage("dev.tributary.crawler..", "dev.tributary.api..")
                .and(not(nameMatching(API_STORAGE_USERS)))
                .should().dependOnClassesThat(resideInAPackage("dev.tributary.storage..").and(not(nameMatching(SHARED_STORAGE))))
                .because("items, sources and groups reach the crawler and the api as pubsub's own records"));
    }

    private static void check(ArchRule rule) {
        rule.check(CLASSES);
    }
}
