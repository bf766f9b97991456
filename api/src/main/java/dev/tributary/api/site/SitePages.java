package dev.tributary.api.site;

import dev.tributary.pubsub.Groups;
import dev.tributary.pubsub.XmppOutbox;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.servlet.ModelAndView;

/**
 * The web front end's pages. Each is a server-rendered shell (layout, forms, CSRF token); its
 * script fills it from the public API with the browser's session, so the front end can do nothing
 * a third-party client can't. Signing in is required for all but sign-up ({@code SitePaths}).
 */
@Controller
class SitePages {

    private static final Pattern ID = Pattern.compile("[1-9][0-9]{0,18}");
    private static final Pattern USERNAME = Pattern.compile("[a-z0-9_]{3,30}");

    private final XmppOutbox xmpp;
    private final Groups groups;

    SitePages(XmppOutbox xmpp, Groups groups) {
        this.xmpp = xmpp;
        this.groups = groups;
    }

    @GetMapping("/")
    ModelAndView home() {
        return page("home");
    }

    @GetMapping("/signup")
    ModelAndView signUp() {
        return page("signup");
    }

    @GetMapping("/sources")
    ModelAndView sources() {
        return page("sources");
    }

    @GetMapping("/sources/{id}")
    ModelAndView source(@PathVariable String id) {
        return ID.matcher(id).matches() ? page("source").addObject("id", id) : notFound();
    }

    @GetMapping("/items/{id}")
    ModelAndView item(@PathVariable String id) {
        return ID.matcher(id).matches() ? page("item").addObject("id", id) : notFound();
    }

    @GetMapping("/people/{username}")
    ModelAndView person(@PathVariable String username) {
        return USERNAME.matcher(username).matches() ? page("person").addObject("username", username) : notFound();
    }

    @GetMapping("/groups")
    ModelAndView groups() {
        return page("groups");
    }

    /** An open group's page names its feed exports in its head, for readers that discover feeds; a closed group's has none. */
    @GetMapping("/groups/{id}")
    ModelAndView group(@PathVariable String id) {
        if (!ID.matcher(id).matches()) {
            return notFound();
        }
        ModelAndView page = page("group").addObject("id", id);
        groups.find(Long.parseLong(id)).filter(group -> group.body().open()).ifPresent(group -> page.addObject("feedAlternates",
                List.of(alternate("application/atom+xml", group.body().name() + " (Atom)", "/feeds/groups/" + id + ".atom"),
                        alternate("application/rss+xml", group.body().name() + " (RSS)", "/feeds/groups/" + id + ".rss"))));
        return page;
    }

    /** A {@code <link rel="alternate">} of the page's head, as the layout reads it. */
    private static Map<String, String> alternate(String type, String title, String href) {
        return Map.of("type", type, "title", title, "href", href);
    }

    @GetMapping("/starred")
    ModelAndView starred() {
        return page("starred");
    }

    @GetMapping("/search")
    ModelAndView search() {
        return page("search");
    }

    @GetMapping("/rules")
    ModelAndView rules() {
        return page("rules");
    }

    /** The XMPP section is shown only where the server pushes over XMPP, so its script asks nothing otherwise. */
    @GetMapping("/settings")
    ModelAndView settings() {
        return page("settings").addObject("xmppPush", xmpp.enabled());
    }

    private static ModelAndView page(String name) {
        return new ModelAndView("site/" + name);
    }

    /** A path that can't name anything: the page would only say so after a round trip. */
    private static ModelAndView notFound() {
        return new ModelAndView("site/not-found", HttpStatus.NOT_FOUND);
    }
}
