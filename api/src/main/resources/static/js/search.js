// The Search page: the reader's hits for ?q=, best first, a page at a time, with the query's words
// marked in titles and in a plain-text excerpt of each summary, narrowed by the home timeline's
// filters (media, tag, a source or a folder, unread), which live in the query string beside q so
// that reload, bookmarks and the back button keep them. Each hit is one story (the API gives the
// reader's one entry of a post several feeds carried, naming the others in also_in), shows whether
// it is read or starred, and can be marked read or unread and starred from the results, each mark
// undoable. Everything is built as text nodes and <mark> elements: neither the query nor an item
// can add markup.

import './layout.js';
import {call, get, link} from './api.js';
import {busy, el, showError, time} from './dom.js';
import {safeUrl, setRead, setStarred, sourceHref} from './items.js';
import {anySet, fromSearch, toQuery, toSearch} from './home/filters.js';

const EXCERPT = 240;
const NO_FILTERS = {media: [], tag: '', sourceId: '', folderId: '', unread: false};

const form = document.querySelector('#search-form');
const input = document.querySelector('#search-page-q');
const scope = document.querySelector('#search-scope');
const clear = document.querySelector('#search-clear');
const results = document.querySelector('#search-results');
const error = document.querySelector('#search-error');
const truncated = document.querySelector('#search-truncated');

/**
 * The query's words as the page marks them: runs of letters, digits and marks, longest first. A
 * word before a '*' is marked where it starts a word; a stemmed or accent-folded match the server
 * found (runs for run, café for cafe) is not marked, only the words as typed.
 */
export function wordsOf(query) {
    const words = (query.normalize('NFKC').match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).map(w => w.toLowerCase());
    return [...new Set(words)].sort((a, b) => b.length - a.length);
}

/** `text` as nodes, each occurrence of a word (any case) in a <mark>. */
export function highlighted(text, words) {
    if (!text || !words.length) {
        return [text ?? ''];
    }
    const pattern = new RegExp(words.map(w => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'giu');
    const nodes = [];
    let at = 0;
    for (const match of text.matchAll(pattern)) {
        if (match.index > at) {
            nodes.push(text.slice(at, match.index));
        }
        nodes.push(el('mark', {}, match[0]));
        at = match.index + match[0].length;
    }
    nodes.push(text.slice(at));
    return nodes;
}

/** The summary's text (parsed inertly: DOMParser runs no scripts and loads nothing), around its first hit. */
function excerpt(html, words) {
    const text = (new DOMParser().parseFromString(html ?? '', 'text/html').body.textContent ?? '').replace(/\s+/g, ' ').trim();
    const lower = text.toLowerCase();
    const first = Math.min(...words.map(w => lower.indexOf(w)).filter(i => i >= 0), text.length);
    const start = first === text.length || first < EXCERPT / 3 ? 0 : first - EXCERPT / 3;
    const cut = text.slice(start, start + EXCERPT);
    return (start > 0 ? '…' : '') + cut + (start + EXCERPT < text.length ? '…' : '');
}

/** "Unread" or "Read", as text beside the title: the read state is said, not only shown by a dimmer card. */
function readState(item) {
    return el('span', {class: `badge search-state${item.read ? '' : ' unread'}`}, item.read ? 'Read' : 'Unread');
}

/** The other feeds that carried the same story: the hit stands for all of them. */
function alsoIn(item) {
    if (!item.also_in?.length) {
        return null;
    }
    const links = item.also_in.map(source =>
        el('a', {href: sourceHref(source)}, source.title || source.url || 'Untitled source'));
    return el('span', {class: 'item-also-in'}, 'also in ', ...links.flatMap((link, i) => i ? [', ', link] : [link]));
}

function resultCard(item, words) {
    const href = item.url ? safeUrl(item.url) : `/items/${encodeURIComponent(item.id)}`;
    const state = readState(item);
    const options = {
        undoable: true,
        onReadChange: (changed, read) => {
            state.textContent = read ? 'Read' : 'Unread';
            state.classList.toggle('unread', !read);
        },
    };
    const toggle = el('button', {type: 'button', class: 'link-button mark-read', 'aria-pressed': String(item.read)},
        item.read ? 'Mark unread' : 'Mark read');
    const star = el('button', {type: 'button', class: 'link-button star-toggle', 'aria-pressed': String(Boolean(item.starred))},
        item.starred ? '★ Starred' : '☆ Star');
    const card = el('article', {class: `item search-hit${item.read ? ' read' : ''}${item.starred ? ' starred' : ''}`,
        dataset: {id: item.id, source: item.source.id}},
        el('div', {class: 'item-meta'},
            el('a', {class: 'item-source', href: sourceHref(item.source)}, item.source.title || item.source.url || 'Untitled source'),
            el('a', {href: `/items/${encodeURIComponent(item.id)}`, class: 'item-time'}, time(item.published_at)),
            state,
            alsoIn(item)),
        el('h2', {class: 'item-title'}, el('a', {href, ...(item.url ? {target: '_blank', rel: 'noopener noreferrer'} : {})},
            highlighted(item.title || item.url || 'Untitled', words))),
        item.summary ? el('p', {class: 'search-excerpt'}, highlighted(excerpt(item.summary, words), words)) : null,
        el('div', {class: 'item-actions'}, toggle, star));
    toggle.addEventListener('click', () => setRead(item, !item.read, card, options));
    star.addEventListener('click', () => setStarred(item, !item.starred, card, options));
    return card;
}

/** A page of hits, its next link, and whether the search read only the newest rows of a very common word. */
async function hits(path, query) {
    const {data, response} = await call('GET', path, {query});
    return {entries: data, next: link(response.headers.get('Link'), 'next'),
        truncated: response.headers.get('Search-Truncated') === 'true'};
}

// Each search gets a number; a slower answer to an earlier one is not shown over a later one.
let runs = 0;

async function run(query, filters) {
    const current = ++runs;
    const words = wordsOf(query);
    const list = el('div', {class: 'items'});
    const more = el('button', {type: 'button', class: 'load-more', hidden: true}, 'More results');
    const end = el('p', {class: 'timeline-end', hidden: true}, 'No more results.');
    showError(error, null);
    truncated.hidden = true;
    results.replaceChildren(list, more, end);
    let next = null;
    const show = result => {
        if (current !== runs) {
            return;
        }
        list.append(...result.entries.map(item => resultCard(item, words)));
        next = result.next;
        more.hidden = !next;
        end.hidden = Boolean(next);
        truncated.hidden = !result.truncated;
        if (!list.children.length) {
            end.textContent = 'Nothing found.';
        }
    };
    more.addEventListener('click', () => busy(more, async () => show(await hits(next)), error));
    show(await hits('/api/v1/search', {q: query, limit: 20, ...toQuery(filters)}));
}

/** The page's state as its address holds it. */
function fromAddress() {
    return {query: new URLSearchParams(location.search).get('q') ?? '', filters: fromSearch(location.search)};
}

/** The address of a search: q first, then the filters in the timeline's order. */
function searchAddress(query, filters) {
    const params = new URLSearchParams({q: query});
    new URLSearchParams(toSearch(filters)).forEach((value, key) => params.set(key, value));
    return `/search?${params}`;
}

/** The source or folder picked in the "In" list: `source:<id>`, `folder:<id>` or '' for all. */
function scopeValue(filters) {
    return filters.sourceId ? `source:${filters.sourceId}` : filters.folderId ? `folder:${filters.folderId}` : '';
}

function syncForm(state) {
    input.value = state.query;
    const box = document.querySelector('#search-q');
    if (box) {
        box.value = state.query;
    }
    for (const check of form.querySelectorAll('input[name=media]')) {
        check.checked = state.filters.media.includes(check.value);
    }
    const picked = scopeValue(state.filters);
    if (picked && ![...scope.options].some(option => option.value === picked)) {
        // A source or folder not (or not yet) in the list still shows as picked.
        scope.append(el('option', {value: picked}, state.filters.sourceId ? 'A source' : 'A folder'));
    }
    scope.value = picked;
    form.tag.value = state.filters.tag;
    form.unread.checked = state.filters.unread;
    clear.hidden = !anySet(state.filters);
}

function readForm() {
    const [kind, id] = scope.value.split(':');
    return {
        media: [...form.querySelectorAll('input[name=media]:checked')].map(check => check.value),
        tag: form.tag.value.trim().slice(0, 100),
        sourceId: kind === 'source' ? id : '',
        folderId: kind === 'folder' ? id : '',
        unread: form.unread.checked,
    };
}

/** Shows the address's search: the form set from it, and its hits when it has words. */
function show() {
    const state = fromAddress();
    syncForm(state);
    if (state.query.trim()) {
        run(state.query, state.filters).catch(failure => showError(error, failure));
    }
}

/** Searches the form's words with its filters: a history entry, so Back returns to the previous search. */
function apply(filters) {
    if (!input.value.trim()) {
        return;
    }
    const address = searchAddress(input.value, filters);
    if (address !== location.pathname + location.search) {
        history.pushState(null, '', address);
    }
    show();
}

/** The caller's folders and subscriptions as the "In" list's choices. */
async function loadScopes() {
    const [folders, subscriptions] = await Promise.all([get('/api/v1/folders'), get('/api/v1/subscriptions')]);
    const title = subscription => subscription.title || subscription.source.title || subscription.source.url || 'Untitled source';
    const options = [el('option', {value: ''}, 'All your sources')];
    if (folders.length) {
        options.push(el('optgroup', {label: 'Folders'},
            ...folders.map(folder => el('option', {value: `folder:${folder.id}`}, folder.name))));
    }
    if (subscriptions.length) {
        options.push(el('optgroup', {label: 'Sources'}, ...subscriptions
            .toSorted((a, b) => title(a).localeCompare(title(b)))
            .map(subscription => el('option', {value: `source:${subscription.source.id}`}, title(subscription)))));
    }
    scope.replaceChildren(...options);
    syncForm(fromAddress());
}

form.addEventListener('submit', event => {
    event.preventDefault();
    apply(readForm());
});
form.addEventListener('change', event => {
    // Words and the tag apply on submit (Enter or the button), not on every keystroke.
    if (event.target.name !== 'q' && event.target.name !== 'tag') {
        apply(readForm());
    }
});
clear.addEventListener('click', () => apply(NO_FILTERS));
window.addEventListener('popstate', show);
loadScopes().catch(failure => showError(error, failure));
show();
