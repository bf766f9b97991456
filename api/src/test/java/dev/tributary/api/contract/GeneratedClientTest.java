package dev.tributary.api.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rometools.rome.feed.synd.SyndEntry;
import com.rometools.rome.feed.synd.SyndFeed;
import com.rometools.rome.io.SyndFeedInput;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.client.ApiClient;
import dev.tributary.client.ApiException;
import dev.tributary.client.ApiResponse;
import dev.tributary.client.api.AccountsApi;
import dev.tributary.client.api.FeedsApi;
import dev.tributary.client.api.FoldersApi;
import dev.tributary.client.api.GroupsApi;
import dev.tributary.client.api.InvitationsApi;
import dev.tributary.client.api.ItemsApi;
import dev.tributary.client.api.MarkersApi;
import dev.tributary.client.api.MeApi;
import dev.tributary.client.api.PostsApi;
import dev.tributary.client.api.SourcesApi;
import dev.tributary.client.api.SubscriptionsApi;
import dev.tributary.client.api.TimelinesApi;
import dev.tributary.client.api.TokensApi;
import dev.tributary.client.api.UnreadApi;
import dev.tributary.client.api.UsersApi;
import dev.tributary.client.model.AccountView;
import dev.tributary.client.model.CommentView;
import dev.tributary.client.model.CreatedToken;
import dev.tributary.client.model.FieldError;
import dev.tributary.client.model.FolderName;
import dev.tributary.client.model.FolderView;
import dev.tributary.client.model.GroupView;
import dev.tributary.client.model.InvitationView;
import dev.tributary.client.model.ItemView;
import dev.tributary.client.model.LikeState;
import dev.tributary.client.model.Marker;
import dev.tributary.client.model.MeView;
import dev.tributary.client.model.MemberView;
import dev.tributary.client.model.NewComment;
import dev.tributary.client.model.NewGroup;
import dev.tributary.client.model.NewMember;
import dev.tributary.client.model.NewToken;
import dev.tributary.client.model.PostRequest;
import dev.tributary.client.model.Problem;
import dev.tributary.client.model.Registration;
import dev.tributary.client.model.SourceView;
import dev.tributary.client.model.SubscribeRequest;
import dev.tributary.client.model.SubscriptionPatch;
import dev.tributary.client.model.SubscriptionView;
import dev.tributary.client.model.TokenView;
import dev.tributary.client.model.UnreadView;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.storage.testing.Await;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The end-to-end journey again, through a Java client generated from {@code docs/openapi.json}
 * (openapi-generator, java/native, at generate-test-sources): two people register, take tokens,
 * subscribe, read and filter timelines, count and mark unread, star, file feeds in folders, post,
 * comment, like, form a group through an invitation, read their feeds as RSS, and meet the errors.
 * Every answer is read into the generated types with unknown fields refused, so a field, type,
 * enum value or nullability the document gets wrong fails here as it would in an app author's client.
 */
@ApiTest
class GeneratedClientTest {

    @RegisterExtension
    static final FeedServerExtension FEEDS = new FeedServerExtension();
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @LocalServerPort int port;

    @Test
    void theGeneratedClientReadsEveryAnswerOfTheJourney() throws Exception {
        Instant newest = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        FEEDS.feed("/generated/news.xml", TestFeeds.numbered("News", 3, newest));
        FEEDS.feed("/generated/photos.xml", photoFeed(newest));
        Person alice = register("gen_alice");
        Person bob = register("gen_bob");

        MeView me = new MeApi(alice.client()).getMe();
        assertThat(me.getUsername()).isEqualTo(alice.username());
        assertThat(me.getFeedToken()).as("shown only when made").isNull();
        String feedToken = new MeApi(alice.client()).rotateFeedToken().getFeedToken();
        assertThat(feedToken).isNotBlank();
        assertThat(new TokensApi(alice.client()).listTokens()).extracting(TokenView::getName).containsExactly("generated");

        // Subscriptions: the crawl publishes both feeds and fan-out fills Alice's home timeline.
        SubscriptionsApi subscriptions = new SubscriptionsApi(alice.client());
        ApiResponse<SubscriptionView> news = subscriptions.subscribeWithHttpInfo(new SubscribeRequest()
                .url(FEEDS.url("/generated/news.xml").toString()));
        assertThat(news.getStatusCode()).isEqualTo(201);
        assertThat(news.getData().getSource().getKind()).isEqualTo(SourceView.KindEnum.FEED);
        assertThat(news.getData().getTitle()).isNull();
        subscriptions.subscribe(new SubscribeRequest().url(FEEDS.url("/generated/photos.xml").toString()));
        TimelinesApi timelines = new TimelinesApi(alice.client());
        List<ItemView> home = Await.value("five entries in Alice's home timeline", PATIENCE,
                () -> home(timelines, 50, null, null), page -> page.size() == 5);
        assertThat(home).extracting(ItemView::getMediaType)
                .containsOnly(ItemView.MediaTypeEnum.LINK, ItemView.MediaTypeEnum.IMAGE);
        assertThat(home).allSatisfy(item -> assertThat(item.getRead()).isFalse());
        assertThat(home(timelines, 20, "image", null)).hasSize(2).allSatisfy(item -> assertThat(item.getMedia())
                .singleElement().satisfies(media -> assertThat(media.getUrl()).endsWith(".jpg")));
        ApiResponse<List<ItemView>> firstPage = timelines.getHomeTimelineWithHttpInfo(2, null, null, null, null, null, null, null,
                null, null);
        assertThat(firstPage.getHeaders()).containsKeys("etag", "link", "ratelimit-remaining");

        // The source, its items, and a folder to file it in.
        String newsSource = news.getData().getSource().getId();
        SourceView source = new SourcesApi(alice.client()).getSource(newsSource);
        assertThat(source.getStatus()).isEqualTo(SourceView.StatusEnum.OK);
        assertThat(source.getLastFetchedAt()).isNotNull();
        assertThat(new SourcesApi(alice.client()).listSourceItems(newsSource, null, null, null, null)).hasSize(3);
        FoldersApi folders = new FoldersApi(alice.client());
        FolderView reading = folders.createFolder(new FolderName().name("Reading"));
        assertThat(folders.renameFolder(reading.getId(), new FolderName().name("Daily")).getName()).isEqualTo("Daily");
        SubscriptionView filed = subscriptions.updateSubscription(news.getData().getId(),
                new SubscriptionPatch().folderIds(List.of(reading.getId())));
        assertThat(filed.getFolders()).extracting(FolderView::getId).containsExactly(reading.getId());
        assertThat(home(timelines, 20, null, reading.getId())).hasSize(3);

        // Unread counts, one item read, a star, the rest marked read by marker.
        UnreadApi unread = new UnreadApi(alice.client());
        UnreadView counts = unread.getUnread();
        assertThat(counts.getTotal()).isEqualTo(5);
        assertThat(counts.getByMedia()).containsEntry("image", 2L);
        assertThat(counts.getByFolder()).containsEntry(reading.getId(), 3L);
        ItemsApi aliceItems = new ItemsApi(alice.client());
        String newestId = home.getFirst().getId();
        aliceItems.markRead(newestId);
        assertThat(aliceItems.getItem(newestId).getRead()).isTrue();
        assertThat(unread.getUnread().getTotal()).isEqualTo(4);
        assertThat(aliceItems.starItem(newestId).getStarred()).isTrue();
        assertThat(timelines.getStarredTimeline(null, null, null, null)).extracting(ItemView::getId).containsExactly(newestId);
        assertThat(new MarkersApi(alice.client()).markReadUpTo(new Marker().upToId(newestId)).getMarked()).isEqualTo(4);
        assertThat(unread.getUnread().getTotal()).isZero();

        // Alice follows Bob; Bob posts; Alice comments and likes.
        subscriptions.subscribe(new SubscribeRequest().user(bob.username()));
        ItemView post = new PostsApi(bob.client()).createPost(new PostRequest().text("Hello from Bob").tags(List.of("hello")));
        assertThat(post.getTags()).containsExactly("hello");
        assertThat(new UsersApi(alice.client()).getUserFeed(bob.username(), null, null, null, null)).extracting(ItemView::getId)
                .containsExactly(post.getId());
        Await.value("Bob's post in Alice's home timeline", PATIENCE, () -> home(timelines, 1, null, null),
                page -> !page.isEmpty() && page.getFirst().getId().equals(post.getId()));
        CommentView comment = aliceItems.addComment(post.getId(), new NewComment().text("Hi Bob!"));
        assertThat(comment.getAuthor().getUsername()).isEqualTo(alice.username());
        LikeState liked = aliceItems.likeItem(post.getId());
        assertThat(liked.getLiked()).isTrue();
        assertThat(liked.getLikesCount()).isEqualTo(1);
        ItemView withBob = home(timelines, 1, null, null).getFirst();
        assertThat(withBob.getLikesCount()).isEqualTo(1);
        assertThat(withBob.getCommentsCount()).isEqualTo(1);
        assertThat(new ItemsApi(bob.client()).listComments(post.getId(), null, null, null, null)).extracting(CommentView::getText)
                .containsExactly("Hi Bob!");

        // A group: Alice invites Bob (202, an invitation), Bob accepts and posts to it.
        GroupsApi aliceGroups = new GroupsApi(alice.client());
        GroupView group = aliceGroups.createGroup(new NewGroup().name("Readers"));
        ApiResponse<Object> invited = aliceGroups.addGroupMemberWithHttpInfo(group.getId(), new NewMember().username(bob.username()));
        assertThat(invited.getStatusCode()).isEqualTo(202);
        assertThat(alice.mapper().convertValue(invited.getData(), InvitationView.class).getUsername()).isEqualTo(bob.username());
        InvitationsApi bobInvitations = new InvitationsApi(bob.client());
        InvitationView invitation = bobInvitations.listInvitations().getFirst();
        assertThat(invitation.getGroupName()).isEqualTo("Readers");
        MemberView member = bobInvitations.acceptInvitation(invitation.getId());
        assertThat(member.getGroupId()).isEqualTo(group.getId());
        assertThat(aliceGroups.listGroupMembers(group.getId(), null, null)).extracting(MemberView::getUsername)
                .containsExactlyInAnyOrder(alice.username(), bob.username());
        ItemView groupPost = new GroupsApi(bob.client()).postToGroup(group.getId(), new PostRequest().text("For the readers"));
        assertThat(aliceGroups.getGroupFeed(group.getId(), null, null, null, null)).extracting(ItemView::getId)
                .containsExactly(groupPost.getId());

        // The private home feed and the OPML export: bytes for an XML parser.
        File rss = new FeedsApi(alice.client()).getHomeRss(feedToken);
        SyndFeed feed = new SyndFeedInput().build(rss);
        assertThat(feed.getEntries().stream().map(SyndEntry::getTitle).toList()).contains("News entry 3");
        assertThat(Files.readString(subscriptions.exportOpml().toPath(), StandardCharsets.UTF_8)).contains("<opml", "Daily");

        // Errors are problem details the client reads too.
        Problem notFound = problem(() -> aliceItems.getItem("999999999999"), 404);
        assertThat(notFound.getType().toString()).isEqualTo("urn:tributary:problem:not-found");
        Problem invalid = problem(() -> new PostsApi(bob.client()).createPost(new PostRequest().text("")), 400);
        assertThat(invalid.getErrors()).extracting(FieldError::getField).contains("text");
        Problem conflict = problem(() -> folders.createFolder(new FolderName().name("Daily")), 409);
        assertThat(conflict.getInstance()).isEqualTo("/api/v1/folders");
        Problem nobody = problem(() -> aliceGroups.addGroupMember(group.getId(),
                new NewMember().username("nobody_" + bob.username())), 422);
        assertThat(nobody.getReason()).isNotBlank();
    }

    /** A person with a personal access token, registered and signed in through the generated client. */
    private record Person(String username, ApiClient client, ObjectMapper mapper) {
    }

    private Person register(String prefix) throws ApiException {
        String username = dev.tributary.api.testing.ApiClient.uniqueUsername(prefix);
        String password = "correct horse " + username;
        AccountView account = new AccountsApi(client(null))
                .createAccount(new Registration().username(username).password(password));
        assertThat(account.getUsername()).isEqualTo(username);
        String basic = "Basic " + Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
        CreatedToken token = new TokensApi(client(basic)).createToken(new NewToken().name("generated")
                .scopes(List.of(NewToken.ScopesEnum.READ, NewToken.ScopesEnum.WRITE, NewToken.ScopesEnum.ACCOUNT)));
        assertThat(token.getToken()).startsWith("trb_");
        ApiClient client = client("Bearer " + token.getToken());
        return new Person(username, client, client.getObjectMapper());
    }

    /** The generated client, as strict as it can be: a field the document does not declare fails the read. */
    private ApiClient client(String authorization) {
        ApiClient client = new ApiClient();
        client.updateBaseUri("http://127.0.0.1:" + port);
        client.setObjectMapper(ApiClient.createDefaultObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES));
        client.setReadTimeout(Duration.ofSeconds(30));
        if (authorization != null) {
            client.setRequestInterceptor(request -> request.header("Authorization", authorization));
        }
        return client;
    }

    private static List<ItemView> home(TimelinesApi timelines, int limit, String media, String folderId) {
        try {
            return timelines.getHomeTimeline(limit, null, null, null, media, null, null, null, folderId, null);
        } catch (ApiException e) {
            throw new AssertionError(e.getCode() + " " + e.getResponseBody(), e);
        }
    }

    private interface Call {
        Object call() throws ApiException;
    }

    /** The problem+json of a call that must fail with {@code status}, read into the generated Problem. */
    private Problem problem(Call call, int status) throws Exception {
        ApiException failure = catchThrowableOfType(ApiException.class, call::call);
        assertThat(failure).as("the call fails").isNotNull();
        assertThat(failure.getCode()).as(failure.getResponseBody()).isEqualTo(status);
        assertThat(failure.getResponseHeaders().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        Problem problem = client(null).getObjectMapper().readValue(failure.getResponseBody(), Problem.class);
        assertThat(problem.getStatus()).isEqualTo(status);
        assertThat(problem.getTitle()).isNotBlank();
        return problem;
    }

    private static String photoFeed(Instant newest) {
        StringBuilder items = new StringBuilder();
        for (int i = 1; i <= 2; i++) {
            items.append("<item><guid>photo-").append(i).append("</guid><title>Photo ").append(i).append("</title>")
                    .append("<link>https://example.org/photo/").append(i).append("</link>")
                    .append("<enclosure url=\"https://example.org/photo/").append(i)
                    .append(".jpg\" type=\"image/jpeg\" length=\"1000\"/>")
                    .append("<pubDate>").append(DateTimeFormatter.RFC_1123_DATE_TIME.format(
                            newest.minusSeconds(600L * i).atOffset(ZoneOffset.UTC))).append("</pubDate></item>");
        }
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel><title>Photos</title><link>https://example.org/</link>
                <description>photos</description>%s</channel></rss>
                """.formatted(items);
    }
}
