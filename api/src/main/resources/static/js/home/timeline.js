// The timeline itself: pages of item cards newest first, "Load more" within the home timeline's
// bounded window, live additions and removals without duplicates, the keyboard selection, and
// marking read as the person reads (the read mode: on open, on scroll, or by hand).

import {page} from '../api.js';
import {busy, el, showError} from '../dom.js';
import {itemCard, setRead, setStarred} from '../items.js';
import {anySet, compareIds, matches, toQuery} from './filters.js';

const PAGE_SIZE = 20;

const list = document.querySelector('#timeline');
const more = document.querySelector('#load-more');
const end = document.querySelector('#timeline-end');
const empty = document.querySelector('#timeline-empty');
const error = document.querySelector('#timeline-error');

/** Shown items by id: {item, card}. A live item already here is not shown twice. */
const shown = new Map();
let next = null;
let filters = null;
let options = {};
// A newer load (filters changed) makes an older one's answer irrelevant.
let generation = 0;
// Live items that arrive while a load is in flight, added once it is in.
let pending = null;
let hasSourcesNow = () => true;

const READ_MODES = ['open', 'scroll', 'manual'];
const READ_MODE_KEY = 'tributary.read-mode';

/**
 * How reading marks read, kept in this browser (the API has no per-person settings store):
 * 'open' (the default, as Miniflux: opening an item marks it), 'scroll' (opening, and also
 * scrolling past it) or 'manual' (only the button, `m`, or mark all).
 */
export function readMode() {
    const mode = localStorage.getItem(READ_MODE_KEY);
    return READ_MODES.includes(mode) ? mode : 'open';
}

export function setReadMode(mode) {
    if (READ_MODES.includes(mode)) {
        localStorage.setItem(READ_MODE_KEY, mode);
    }
}

// Cards scrolled past the top of the screen (under the sticky header) count as read in 'scroll' mode.
const scrolledPast = 'IntersectionObserver' in window ? new IntersectionObserver(changes => {
    if (readMode() !== 'scroll') {
        return;
    }
    for (const change of changes) {
        if (!change.isIntersecting && change.boundingClientRect.bottom <= (change.rootBounds?.top ?? 0)) {
            const entry = shown.get(change.target.dataset.id);
            if (entry && !entry.item.read) {
                setRead(entry.item, true, entry.card, options);
            }
        }
    }
}) : null;

/** `hooks.onReadChange(item, read)` is told of every read change made on this page. */
export function configure(hooks) {
    options = {...hooks, undoable: true};
    more.addEventListener('click', () => busy(more, loadMore, error));
    // Opening an item (its title, its link, "Read full article") marks it read. Capture, so that
    // "Read full article" is seen before its own handler flips it to "Hide".
    const onOpen = event => {
        const opener = event.target.closest?.('.item-title a, .full-article[aria-expanded="false"]');
        const card = opener?.closest('.item');
        if (card && (event.type === 'click' || event.button === 1)) {
            opened(shown.get(card.dataset.id));
        }
    };
    list.addEventListener('click', onOpen, true);
    list.addEventListener('auxclick', onOpen, true);
}

/** The person opened an item: unless they mark by hand, it is read now. */
export function opened(entry) {
    if (entry && !entry.item.read && readMode() !== 'manual') {
        setRead(entry.item, true, entry.card, options);
    }
}

/** Loads the first page for `current` filters, replacing what is shown. */
export async function load(current, {hasSources}) {
    const mine = ++generation;
    filters = current;
    hasSourcesNow = hasSources;
    pending = [];
    list.setAttribute('aria-busy', 'true');
    showError(error, null);
    more.hidden = true;
    end.hidden = true;
    try {
        const result = await page('/api/v1/timelines/home', {limit: PAGE_SIZE, ...toQuery(filters)});
        if (mine !== generation) {
            return;
        }
        shown.clear();
        scrolledPast?.disconnect();
        list.replaceChildren();
        append(result);
        const late = pending;
        pending = null;
        late.forEach(([item, how]) => addLive(item, how));
        showEmpty();
    } catch (failure) {
        if (mine === generation) {
            pending = null;
            list.replaceChildren();
            shown.clear();
            showError(error, failure);
        }
    } finally {
        if (mine === generation) {
            list.setAttribute('aria-busy', 'false');
        }
    }
}

async function loadMore() {
    const mine = generation;
    const result = await page(next);
    if (mine === generation) {
        append(result);
    }
}

function append(result) {
    const cards = result.entries.filter(item => !shown.has(item.id)).map(item => track(item));
    list.append(...cards);
    // A page shorter than asked for is the last; a full one may still be followed by an empty one.
    next = result.entries.length >= PAGE_SIZE ? result.next : null;
    more.hidden = !next;
    end.hidden = Boolean(next) || shown.size === 0;
    end.textContent = 'You’ve reached the end of your home timeline. It keeps your newest 800 entries; '
        + 'older items are on each source’s page.';
}

function track(item) {
    const card = itemCard(item, options);
    card.tabIndex = -1;
    shown.set(item.id, {item, card});
    scrolledPast?.observe(card);
    return card;
}

/** Shows the right empty state (once the subscriptions are known, it may tell to subscribe). */
export function showEmpty() {
    if (pending || !filters) {
        return;
    }
    if (shown.size) {
        empty.hidden = true;
        return;
    }
    empty.hidden = false;
    if (anySet(filters)) {
        empty.replaceChildren('Nothing in your home timeline matches these filters.');
    } else if (!hasSourcesNow()) {
        empty.replaceChildren('You aren’t following anything yet. ',
            el('a', {href: '/sources'}, 'Subscribe to feeds and people'),
            ' and their new items will appear here.');
    } else {
        empty.replaceChildren('Nothing here yet: new items from your sources will appear here as they arrive.');
    }
}

/**
 * Adds an item that arrived live (the stream, or the composer's answer) at its place by id,
 * highlighted, unless it is already shown or the filters leave it out. True if it was added.
 */
export function addLive(item, {streamed = false} = {}) {
    if (pending) {
        pending.push([item, {streamed}]);
        return false;
    }
    const known = shown.get(item.id);
    if (known) {
        // Marks the card as confirmed by the stream (the composer's post comes back this way).
        known.card.toggleAttribute('data-streamed', streamed || known.card.hasAttribute('data-streamed'));
        return false;
    }
    if (!filters || !matches(item, filters, options.inFolder)) {
        return false;
    }
    const older = [...list.querySelectorAll('.item')].find(card => compareIds(card.dataset.id, item.id) < 0);
    if (!older && next) {
        // Older than everything loaded while more is still to load: it will come with its page.
        return false;
    }
    const card = track(item);
    card.classList.add('fresh');
    card.toggleAttribute('data-streamed', streamed);
    list.insertBefore(card, older ?? null);
    empty.hidden = true;
    end.hidden = Boolean(next);
    return true;
}

/** Removes a deleted item. */
export function remove(id) {
    const entry = shown.get(id);
    if (entry) {
        scrolledPast?.unobserve(entry.card);
        entry.card.remove();
        shown.delete(id);
        end.hidden = Boolean(next) || shown.size === 0;
        showEmpty();
    }
}

/** The loaded items, newest first. */
export function items() {
    return [...list.querySelectorAll('.item')].map(card => shown.get(card.dataset.id)?.item).filter(Boolean);
}

/** Shows `item` (already marked on the server) as read. */
export function showRead(item) {
    const entry = shown.get(item.id);
    if (!entry || entry.item.read) {
        return;
    }
    entry.item.read = true;
    entry.card.classList.add('read');
    const button = entry.card.querySelector('.mark-read');
    button.textContent = 'Mark unread';
    button.setAttribute('aria-pressed', 'true');
}

/** Shows `item` (marked unread on the server, by an undo) as unread. */
export function showUnread(item) {
    const entry = shown.get(item.id);
    if (!entry || !entry.item.read) {
        return;
    }
    entry.item.read = false;
    entry.card.classList.remove('read');
    const button = entry.card.querySelector('.mark-read');
    button.textContent = 'Mark read';
    button.setAttribute('aria-pressed', 'false');
}

/** Moves the keyboard selection by `step` cards (the first j selects the first card); moving onto an item opens it. */
export function moveSelection(step) {
    const cards = [...list.querySelectorAll('.item')];
    if (!cards.length) {
        return;
    }
    const current = cards.findIndex(card => card.classList.contains('selected'));
    const target = current < 0 ? 0 : Math.min(cards.length - 1, Math.max(0, current + step));
    cards[current]?.classList.remove('selected');
    cards[target].classList.add('selected');
    cards[target].focus({preventScroll: true});
    cards[target].scrollIntoView({block: 'nearest'});
    if (target !== current) {
        opened(shown.get(cards[target].dataset.id));
    }
}

/** The selected item, if any. */
export function selected() {
    const card = list.querySelector('.item.selected');
    return card ? shown.get(card.dataset.id) : null;
}

/** Stars or unstars the selected item, as its button would. */
export function toggleStarSelected() {
    const entry = selected();
    if (entry) {
        setStarred(entry.item, !entry.item.starred, entry.card, options);
    }
}

/** Toggles read on the selected item, as its button would. */
export function toggleSelected() {
    const entry = selected();
    if (entry) {
        setRead(entry.item, !entry.item.read, entry.card, options);
    }
}
