package dev.tributary.api.post;

import dev.tributary.api.item.ItemView;
import dev.tributary.api.item.ItemViews;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Ids;
import jakarta.validation.Valid;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** A person's own posts: publish one, delete one. */
@RestController
class PostController {

    private final Posts posts;
    private final ItemViews views;

    PostController(Posts posts, ItemViews views) {
        this.posts = posts;
        this.views = views;
    }

    @PostMapping("/api/v1/posts")
    @ResponseStatus(HttpStatus.CREATED)
    ItemView post(Caller caller, @Valid @RequestBody PostRequest request) {
        return views.of(caller.userId(), posts.publish(caller.userId(), request));
    }

    @DeleteMapping("/api/v1/posts/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void delete(Caller caller, @PathVariable String id) {
        posts.delete(caller.userId(), Ids.path(id, "post"));
    }
}
