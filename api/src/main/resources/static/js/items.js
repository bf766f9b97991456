// Items as every page shows them: one card per item, and lists paged with "Load more" until an
// explicit end.

import {call, page} from './api.js';
import {busy, el, sanitize, time, toast} from './dom.js';

const MEDIA_LABELS = {text: 'Text', link: 'Link', image: 'Image', video: 'Video', audio: 'Audio'};

/** The page that shows a source: a person's profile for people, else the source page. */
export function sourceHref(source) {
    return `/sources/${encodeURIComponent(source.id)}`;
}

/**
 * A card for an item (API.md's `item`). `options.onReadChange(item, read)` is told when the
 * reader marks it read or unread from the card (with `options.undoable`, each mark offers an undo), `options.onStarChange(item, starred, card)` when
 * they star or unstar it.
 */
export function itemCard(item, options = {}) {
    try {
        return card(item, options);
    } catch (failure) {
        // One item the page cannot show must not take the others with it: it gets a placeholder.
        console.error('item could not be shown', item?.id, failure);
        return brokenCard(item);
    }
}

function brokenCard(item) {
    const id = typeof item?.id === 'string' ? item.id : null;
    return el('article', {class: 'item item-broken', dataset: id ? {id} : {}},
        el('p', {}, 'This item could not be shown here. ',
            id ? el('a', {href: `/items/${encodeURIComponent(id)}`}, 'Open it on its own page') : null));
}

function card(item, options) {
    const card = el('article', {class: `item${item.read ? ' read' : ''}${item.starred ? ' starred' : ''}`, dataset: {id: item.id, source: item.source.id}},
        el('div', {class: 'item-meta'},
            el('a', {class: 'item-source', href: sourceHref(item.source)}, item.source.title || item.source.url || 'Untitled source'),
            item.author ? el('span', {class: 'item-author'}, item.author) : null,
            el('a', {href: `/items/${encodeURIComponent(item.id)}`, class: 'item-time'}, time(item.published_at)),
            el('span', {class: 'badge media-type'}, MEDIA_LABELS[item.media_type] ?? item.media_type),
            alsoIn(item)),
        heading(item),
        sharedBy(item),
        item.summary ? el('div', {class: 'item-summary'}, sanitize(item.summary)) : null,
        mediaStrip(item),
        item.tags?.length ? el('div', {class: 'item-tags'},
            item.tags.map(tag => el('a', {class: 'tag', href: `/?tag=${encodeURIComponent(tag)}`}, `#${tag}`))) : null,
        actions(item, options));
    return card;
}

/** "also in …": the other feeds that carried the same story, which the reader's one entry stands for. */
function alsoIn(item) {
    if (!item.also_in?.length) {
        return null;
    }
    const links = [];
    item.also_in.forEach((source, i) => {
        if (i > 0) {
            links.push(', ');
        }
        links.push(el('a', {href: sourceHref(source)}, source.title || source.url || 'Untitled source'));
    });
    return el('span', {class: 'item-also-in'}, 'also in ', ...links);
}

/** "N people shared this": who else posted the item's link, the newest ten named (the count is all of them). */
function sharedBy(item) {
    const shared = item.shared_by;
    if (!shared?.count) {
        return null;
    }
    const names = [];
    shared.people.forEach((person, i) => {
        if (i > 0) {
            names.push(', ');
        }
        names.push(el('a', {href: `/people/${encodeURIComponent(person.username)}`}, person.username));
    });
    const more = shared.count - shared.people.length;
    return el('div', {class: 'item-shared-by'},
        `${shared.count} ${shared.count === 1 ? 'person' : 'people'} shared this`,
        names.length ? ': ' : null, ...names, more > 0 ? ` and ${more} more` : null);
}

/** The title, linking to the original; a post has none, and its text speaks for itself. */
function heading(item) {
    if (item.url) {
        return el('h2', {class: 'item-title'},
            el('a', {href: safeUrl(item.url), target: '_blank', rel: 'noopener noreferrer', class: 'item-link'}, item.title || item.url));
    }
    return item.title ? el('h2', {class: 'item-title'}, el('a', {href: `/items/${encodeURIComponent(item.id)}`}, item.title)) : null;
}

function actions(item, options) {
    const toggle = el('button', {type: 'button', class: 'link-button mark-read', 'aria-pressed': String(item.read)},
        item.read ? 'Mark unread' : 'Mark read');
    toggle.addEventListener('click', () => setRead(item, !item.read, toggle.closest('.item'), options));
    const star = el('button', {type: 'button', class: 'link-button star-toggle', 'aria-pressed': String(Boolean(item.starred))},
        starLabel(item.starred));
    star.addEventListener('click', () => setStarred(item, !item.starred, star.closest('.item'), options));
    return el('div', {class: 'item-actions'},
        toggle,
        star,
        item.url ? fullArticleButton(item) : null,
        el('a', {class: 'likes', href: `/items/${encodeURIComponent(item.id)}`},
            `${item.likes_count} like${item.likes_count === 1 ? '' : 's'}`),
        el('a', {class: 'comments', href: `/items/${encodeURIComponent(item.id)}#comments`},
            `${item.comments_count} comment${item.comments_count === 1 ? '' : 's'}`));
}

/**
 * "Read full article": loads the article the server read from the item's page (kept for every
 * reader, so only the first reader waits for the fetch) and shows it under the summary; pressed
 * again, hides it. A page that gives no article says why in a toast.
 */
function fullArticleButton(item) {
    const button = el('button', {type: 'button', class: 'link-button full-article', 'aria-expanded': 'false'}, 'Read full article');
    button.addEventListener('click', () => toggleFullArticle(item, button));
    return button;
}

async function toggleFullArticle(item, button) {
    const card = button.closest('.item');
    const shown = card.querySelector('.item-article');
    if (shown) {
        const hidden = !shown.hidden;
        shown.hidden = hidden;
        button.textContent = hidden ? 'Read full article' : 'Hide full article';
        button.setAttribute('aria-expanded', String(!hidden));
        return;
    }
    const article = await busy(button, async () =>
        (await call('GET', `/api/v1/items/${encodeURIComponent(item.id)}/content`)).data);
    if (!article) {
        return;
    }
    const body = el('div', {class: 'item-article'},
        sanitize(article.content),
        article.truncated ? el('p', {class: 'item-article-note'}, 'The article goes on at ',
            el('a', {href: safeUrl(article.url), target: '_blank', rel: 'noopener noreferrer'}, 'its page'), '.') : null);
    (card.querySelector('.item-summary') ?? card.querySelector('.item-title') ?? card.firstChild).after(body);
    button.textContent = 'Hide full article';
    button.setAttribute('aria-expanded', 'true');
}

/** Marks an item read or unread through the API and updates its card. */
export async function setRead(item, read, card, options = {}) {
    const button = card?.querySelector('.mark-read');
    const done = await busy(button ?? el('button'), async () => {
        await call(read ? 'POST' : 'DELETE', `/api/v1/items/${encodeURIComponent(item.id)}/read`);
        return true;
    });
    if (!done) {
        return;
    }
    item.read = read;
    card?.classList.toggle('read', read);
    if (button) {
        button.textContent = read ? 'Mark unread' : 'Mark read';
        button.setAttribute('aria-pressed', String(read));
    }
    options.onReadChange?.(item, read);
    if (options.undoable) {
        // Every mark can be taken back for a few seconds; taking it back offers no undo of its own.
        toast(`${read ? 'Marked read' : 'Marked unread'}: ${shortTitle(item)}`,
            {undo: () => setRead(item, !read, card, {...options, undoable: false})});
    }
}

function shortTitle(item) {
    const text = item.title || item.url || 'the item';
    return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

function starLabel(starred) {
    return starred ? '★ Starred' : '☆ Star';
}

/** Stars or unstars an item through the API and updates its card. */
export async function setStarred(item, starred, card, options = {}) {
    const button = card?.querySelector('.star-toggle');
    const done = await busy(button ?? el('button'), async () => {
        await call(starred ? 'POST' : 'DELETE', `/api/v1/items/${encodeURIComponent(item.id)}/star`);
        return true;
    });
    if (!done) {
        return;
    }
    item.starred = starred;
    card?.classList.toggle('starred', starred);
    if (button) {
        button.textContent = starLabel(starred);
        button.setAttribute('aria-pressed', String(starred));
    }
    options.onStarChange?.(item, starred, card);
}

function mediaStrip(item) {
    const shown = (item.media ?? []).filter(media => media.url).slice(0, 4);
    if (!shown.length) {
        return null;
    }
    return el('div', {class: 'item-media'}, shown.map(media => {
        const url = safeUrl(media.url);
        if (media.type?.startsWith('image/') || (!media.type && item.media_type === 'image')) {
            return el('img', {src: url, alt: '', loading: 'lazy', decoding: 'async', referrerpolicy: 'no-referrer',
                width: media.width, height: media.height});
        }
        if (media.type?.startsWith('video/')) {
            return el('video', {src: url, controls: true, preload: 'none'});
        }
        if (media.type?.startsWith('audio/')) {
            return el('audio', {src: url, controls: true, preload: 'none'});
        }
        // A player's page (text/html, from a post that embeds one) opens where it plays.
        return el('a', {href: url, target: '_blank', rel: 'noopener noreferrer'},
            media.type === 'text/html' ? 'Play video' : 'Attachment');
    }));
}

/** Only http(s) links are followed; anything else (javascript:, data:) becomes inert. */
export function safeUrl(url) {
    try {
        const parsed = new URL(url, location.origin);
        return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : '#';
    } catch (malformed) {
        return '#';
    }
}

/**
 * Fills `container` with the items at `path` (a far-back list: a source's, a person's, a group's
 * items), a page at a time behind a "Load more" button, ending with an explicit end marker.
 */
export async function pagedItems(container, path, query = {limit: 20}, cardOptions = {}) {
    const list = el('div', {class: 'items'});
    const more = el('button', {type: 'button', class: 'load-more'}, 'Load more');
    const end = el('p', {class: 'timeline-end', hidden: true}, 'That’s everything.');
    container.replaceChildren(list, more, end);
    const limit = Number(query.limit ?? 20);
    let next = null;
    const show = result => {
        list.append(...result.entries.map(item => itemCard(item, cardOptions)));
        // The API links a next page even after a short one; a short page is the last.
        next = result.entries.length < limit ? null : result.next;
        more.hidden = !next || result.entries.length === 0;
        end.hidden = !more.hidden;
        if (!list.children.length) {
            end.textContent = 'Nothing here yet.';
        }
    };
    more.addEventListener('click', () => busy(more, async () => show(await page(next))));
    show(await page(path, query));
}

