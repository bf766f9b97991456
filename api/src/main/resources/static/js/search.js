// The Search page: the reader's hits for ?q=, best first, a page at a time, with the query's words
// marked in titles and in a plain-text excerpt of each summary. Everything is built as text nodes
// and <mark> elements: neither the query nor an item can add markup.

import './layout.js';
import {page} from './api.js';
import {busy, el, showError, time} from './dom.js';
import {safeUrl, sourceHref} from './items.js';

const EXCERPT = 240;

const form = document.querySelector('#search-form');
const input = document.querySelector('#search-page-q');
const results = document.querySelector('#search-results');
const error = document.querySelector('#search-error');

/** The query's words as the page marks them: runs of letters, digits and marks, longest first. */
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

function resultCard(item, words) {
    const href = item.url ? safeUrl(item.url) : `/items/${encodeURIComponent(item.id)}`;
    return el('article', {class: `item search-hit${item.read ? ' read' : ''}`, dataset: {id: item.id}},
        el('div', {class: 'item-meta'},
            el('a', {class: 'item-source', href: sourceHref(item.source)}, item.source.title || item.source.url || 'Untitled source'),
            el('a', {href: `/items/${encodeURIComponent(item.id)}`, class: 'item-time'}, time(item.published_at))),
        el('h2', {class: 'item-title'}, el('a', {href, ...(item.url ? {target: '_blank', rel: 'noopener noreferrer'} : {})},
            highlighted(item.title || item.url || 'Untitled', words))),
        item.summary ? el('p', {class: 'search-excerpt'}, highlighted(excerpt(item.summary, words), words)) : null);
}

async function run(query) {
    const words = wordsOf(query);
    const list = el('div', {class: 'items'});
    const more = el('button', {type: 'button', class: 'load-more', hidden: true}, 'More results');
    const end = el('p', {class: 'timeline-end', hidden: true}, 'No more results.');
    results.replaceChildren(list, more, end);
    let next = null;
    const show = result => {
        list.append(...result.entries.map(item => resultCard(item, words)));
        next = result.next;
        more.hidden = !next;
        end.hidden = Boolean(next);
        if (!list.children.length) {
            end.textContent = 'Nothing found.';
        }
    };
    more.addEventListener('click', () => busy(more, async () => show(await page(next)), error));
    show(await page('/api/v1/search', {q: query, limit: 20}));
}

const query = new URLSearchParams(location.search).get('q') ?? '';
input.value = query;
const box = document.querySelector('#search-q');
if (box) {
    box.value = query;
}
form.addEventListener('submit', event => {
    if (!input.value.trim()) {
        event.preventDefault();
    }
});
if (query.trim()) {
    run(query).catch(failure => showError(error, failure));
}
