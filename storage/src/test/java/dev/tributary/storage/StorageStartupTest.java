package dev.tributary.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.storage.testing.Await;
import dev.tributary.storage.testing.StorageTestApplication;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;

/** Start-up checks. Uses the shared context too, so the embedded servers stay up while a second context fails. */
@WithEmbeddedStorage
class StorageStartupTest {

    @Autowired
    IndexStates states;

    /** Not a @Configuration, so that only this test's context sees it. */
    static class IndexWithoutTable {
        @Bean
        IndexDefinition<TestKinds.Doc> docsByNothing() {
            return IndexDefinition.of("test_docs_without_table", "test_idx_never_created", TestKinds.DOC,
                    List.of(IndexColumn.bigint("grp")), doc -> List.of(IndexKey.of(doc.group())));
        }
    }

    @Test
    void aDeclaredIndexWithoutItsTableStopsStartUpNamingTheDdl() {
        var app = new SpringApplicationBuilder(StorageTestApplication.class, TestKinds.class, IndexWithoutTable.class)
                .web(WebApplicationType.NONE)
                .properties("tributary.storage.cleaner.enabled=false");
        assertThatThrownBy(app::run)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("test_docs_without_table")
                .hasMessageContaining("CREATE TABLE IF NOT EXISTS test_idx_never_created");
    }

    @Test
    void declaredIndexesAreRegisteredAndBackFilledAtStartUp() {
        Await.until("the start-up back-fill", Duration.ofSeconds(60),
                () -> states.find(TestKinds.NOTES_BY_TAG.name()).map(IndexStates.State::ready).orElse(false));
        assertThat(states.find(TestKinds.NOTES_BY_SOURCE.name())).isPresent();
    }
}
