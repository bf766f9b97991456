package dev.tributary.pubsub;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

@WithEmbeddedPubsub
class FoldersTest {

    @Autowired Folders folders;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired HomeFeed home;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;

    @Test
    void namesAreTrimmedAndUniquePerPersonWhateverTheirCase() {
        long alice = fixtures.person();
        long bob = fixtures.person();

        Folder news = folders.create(alice, "  Ärger News ");

        assertThat(news.name()).isEqualTo("Ärger News");
        assertThatThrownBy(() -> folders.create(alice, "ÄRGER news")).isInstanceOf(FolderNameTakenException.class);
        assertThat(folders.create(bob, "ärger news").userId()).as("another person's names are theirs").isEqualTo(bob);
        assertThat(folders.findOrCreate(alice, "ärger NEWS")).isEqualTo(news);
        assertThat(folders.rename(alice, news.id(), "ärger news").name()).as("a change of case is a rename").isEqualTo("ärger news");
        Folder tech = folders.create(alice, "Tech");
        assertThatThrownBy(() -> folders.rename(alice, tech.id(), "ÄRGER NEWS")).isInstanceOf(FolderNameTakenException.class);
        assertThatThrownBy(() -> folders.rename(bob, tech.id(), "Mine")).isInstanceOf(FolderNotFoundException.class);
        assertThat(folders.of(alice)).as("by case-folded code points").extracting(Folder::name).containsExactly("Tech", "ärger news");
    }

    @Test
    void badNamesAreRefusedWithWhy() {
        long alice = fixtures.person();

        assertThatThrownBy(() -> folders.create(alice, "   ")).isInstanceOf(InvalidNameException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> folders.create(alice, "a\u0000b")).isInstanceOf(InvalidNameException.class).hasMessageContaining("control");
        assertThatThrownBy(() -> folders.create(alice, "line\nbreak")).isInstanceOf(InvalidNameException.class);
        assertThatThrownBy(() -> folders.create(alice, "x".repeat(101))).isInstanceOf(InvalidNameException.class).hasMessageContaining("100");
        assertThat(folders.create(alice, "😀".repeat(100)).name()).as("100 characters, not UTF-16 units").hasSize(200);
        assertThat(folders.of(alice)).hasSize(1);
    }

    @Test
    void aPersonHasAtMostAHundredFolders() {
        long alice = fixtures.person();
        for (int i = 0; i < Folders.MAX_FOLDERS; i++) {
            folders.create(alice, "f" + i);
        }

        assertThatThrownBy(() -> folders.create(alice, "one too many")).isInstanceOf(FolderLimitException.class);
        assertThatThrownBy(() -> folders.findOrCreate(alice, "one too many")).isInstanceOf(FolderLimitException.class);
        assertThat(folders.findOrCreate(alice, "F7").name()).as("an existing one is found").isEqualTo("f7");
        assertThat(folders.of(alice)).hasSize(Folders.MAX_FOLDERS);
    }

    @Test
    void subscriptionsAreFiledManyToManyAndDeletingAFolderKeepsThem() {
        long alice = fixtures.person();
        long one = fixtures.feed();
        long two = fixtures.feed();
        fixtures.subscribe(one, List.of(alice));
        fixtures.subscribe(two, List.of(alice));
        Folder news = folders.create(alice, "News");
        Folder tech = folders.create(alice, "Tech");

        folders.file(alice, one, List.of(news.id(), tech.id()));
        folders.file(alice, two, List.of(tech.id()));

        assertThat(folders.foldersOf(alice, one)).containsExactly(news, tech);
        assertThat(folders.foldersBySource(alice)).containsOnlyKeys(one, two);
        assertThat(folders.sourcesIn(alice, tech.id())).containsExactlyInAnyOrder(one, two);
        assertThat(folders.sourcesByFolder(alice)).containsEntry(news.id(), Set.of(one));

        assertThat(folders.delete(alice, tech.id())).isTrue();

        assertThat(subscriptions.of(alice)).hasSize(2);
        assertThat(folders.foldersOf(alice, one)).containsExactly(news);
        assertThat(folders.foldersOf(alice, two)).isEmpty();
        assertThat(folders.delete(alice, tech.id())).isFalse();
    }

    @Test
    void onlyOnesOwnFoldersAndSubscriptionsCanBeFiled() {
        long alice = fixtures.person();
        long bob = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(alice));
        Folder bobs = folders.create(bob, "Bob's");
        Folder mine = folders.create(alice, "Mine");

        assertThatThrownBy(() -> folders.file(alice, feed, List.of(mine.id(), bobs.id())))
                .isInstanceOf(FolderNotFoundException.class);
        assertThatThrownBy(() -> folders.file(bob, feed, List.of(bobs.id()))).isInstanceOf(SourceNotFoundException.class);
        assertThat(folders.foldersOf(alice, feed)).as("a refused filing changes nothing").isEmpty();
        assertThat(folders.sourcesIn(alice, bobs.id())).isEmpty();
    }

    @Test
    void unsubscribingDropsTheMembershipsAndRefollowingStartsUnfiled() {
        long alice = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(alice));
        Folder news = folders.create(alice, "News");
        folders.file(alice, feed, List.of(news.id()));

        subscriptions.unsubscribe(alice, feed);
        fixtures.subscribe(feed, List.of(alice));

        assertThat(folders.sourcesIn(alice, news.id())).isEmpty();
        assertThat(folders.foldersOf(alice, feed)).isEmpty();
        assertThat(folders.of(alice)).containsExactly(news);
    }

    @Test
    void aSubscriptionTakesTheTitleItsPersonGivesIt() {
        long alice = fixtures.person();
        long bob = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(alice, bob));

        assertThat(subscriptions.retitle(alice, feed, "  My name for it ").orElseThrow().title()).isEqualTo("My name for it");
        assertThat(subscriptions.find(bob, feed).orElseThrow().title()).isNull();
        assertThat(subscriptions.subscribe(alice, feed, Set.of(MediaType.TEXT)).subscription().title()).isEqualTo("My name for it");
        assertThatThrownBy(() -> subscriptions.retitle(alice, feed, "x".repeat(201))).isInstanceOf(InvalidNameException.class);
        assertThat(subscriptions.retitle(alice, feed, null).orElseThrow().title()).isNull();
        assertThat(subscriptions.retitle(alice, fixtures.feed(), "not followed")).isEmpty();
    }

    @Test
    void aFolderPageReadsTheHorizonOfItsSourcesOnly() {
        long alice = fixtures.person();
        long one = fixtures.feed();
        long two = fixtures.feed();
        long other = fixtures.feed();
        fixtures.subscribe(one, List.of(alice));
        fixtures.subscribe(two, List.of(alice));
        fixtures.subscribe(other, List.of(alice));
        Folder news = folders.create(alice, "News");
        folders.file(alice, one, List.of(news.id()));
        folders.file(alice, two, List.of(news.id()));
        List<Long> ofOne = publisher.publish(one, List.of(entry("a1"), entry("a2"))).created();
        List<Long> ofTwo = publisher.publish(two, List.of(entry("b1"))).created();
        publisher.publish(other, List.of(entry("c1")));
        fanout.drain();

        TimelineQuery folder = TimelineQuery.newest(10).withSources(folders.sourcesIn(alice, news.id()));

        assertThat(home.page(alice, folder)).extracting(TimelineEntry::id)
                .containsExactlyInAnyOrder(ofOne.get(0), ofOne.get(1), ofTwo.get(0));
        assertThat(folder.isNewest()).isFalse();
        assertThat(folder.readsHorizon()).isTrue();
        assertThat(home.page(alice, TimelineQuery.newest(10).withSources(Set.of()))).as("an empty folder").isEmpty();
        home.markRead(alice, ofOne.get(0));
        assertThat(home.page(alice, folder.unread())).extracting(TimelineEntry::id).containsExactlyInAnyOrder(ofOne.get(1), ofTwo.get(0));
    }

    @Test
    void manySubscriptionsAreFiledAtOnceAllOrNothing() {
        long alice = fixtures.person();
        long bob = fixtures.person();
        long one = fixtures.feed();
        long two = fixtures.feed();
        long unfollowed = fixtures.feed();
        fixtures.subscribe(one, List.of(alice));
        fixtures.subscribe(two, List.of(alice));
        long news = folders.create(alice, "News").id();
        long tech = folders.create(alice, "Tech").id();
        long bobs = folders.create(bob, "Bob's").id();
        folders.file(alice, two, List.of(tech));

        folders.fileAll(alice, java.util.Map.of(one, List.of(news, tech), two, List.of(news)));

        assertThat(folders.foldersOf(alice, one)).extracting(Folder::id).containsExactlyInAnyOrder(news, tech);
        assertThat(folders.foldersOf(alice, two)).extracting(Folder::id).containsExactly(news);
        assertThatThrownBy(() -> folders.fileAll(alice, java.util.Map.of(one, List.of(tech), unfollowed, List.of(tech))))
                .isInstanceOf(SourceNotFoundException.class);
        assertThatThrownBy(() -> folders.fileAll(alice, java.util.Map.of(one, List.of(bobs))))
                .isInstanceOf(FolderNotFoundException.class);
        assertThat(folders.foldersOf(alice, one)).as("nothing changed by a refused call").extracting(Folder::id)
                .containsExactlyInAnyOrder(news, tech);
    }
}
