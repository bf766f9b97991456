// The sidebar: the person's subscriptions, each a link that filters the timeline by that source,
// with the unread counts beside them.

import {get} from '../api.js';
import {el} from '../dom.js';
import {toSearch} from './filters.js';

const list = document.querySelector('#source-list');
const allSources = document.querySelector('#all-sources');
const total = document.querySelector('#unread-total');
const loading = document.querySelector('#sources-loading');

let sources = [];
let lastCounts = null;
// Responses to /unread can come back out of order; only the newest request's answer is shown.
let countsRequest = 0;

/** Loads the subscriptions; `onPick(sourceId)` is called when one is clicked ('' for all). */
export async function loadSources(onPick) {
    allSources.addEventListener('click', event => pick(event, '', onPick));
    try {
        const subscriptions = await get('/api/v1/subscriptions');
        sources = subscriptions.map(subscription => subscription.source)
            .sort((a, b) => title(a).localeCompare(title(b)));
        list.append(...sources.map(source => sourceEntry(source, onPick)));
        loading.hidden = true;
    } catch (error) {
        loading.textContent = `Your subscriptions could not be loaded: ${error.message}`;
        loading.classList.add('error');
    }
    if (lastCounts) {
        showCounts(lastCounts);
    }
    return sources;
}

function sourceEntry(source, onPick) {
    const link = el('a', {class: 'source-link', href: '/', dataset: {source: source.id}}, title(source));
    link.addEventListener('click', event => pick(event, source.id, onPick));
    return el('li', {dataset: {source: source.id}},
        link,
        source.status && source.status !== 'ok' ? el('span', {class: `badge ${source.status}`}, source.status) : null,
        el('span', {class: 'count source-count', dataset: {source: source.id}}, '0'));
}

function pick(event, sourceId, onPick) {
    // Modified clicks (new tab, new window) follow the link as is.
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) {
        return;
    }
    event.preventDefault();
    onPick(sourceId);
}

function title(source) {
    return source.title || source.url || 'Untitled source';
}

/** The source's title, for messages ("Mark all from …"). */
export function sourceTitle(sourceId) {
    const source = sources.find(candidate => candidate.id === sourceId);
    return source ? title(source) : 'this source';
}

/** Points every sidebar link at the filters it would give, and highlights the selected source. */
export function showSelection(filters) {
    for (const link of document.querySelectorAll('.source-link')) {
        const sourceId = link.dataset.source ?? '';
        link.href = `/${toSearch({...filters, sourceId})}`;
        const selected = sourceId === filters.sourceId;
        link.classList.toggle('selected', selected);
        if (selected) {
            link.setAttribute('aria-current', 'true');
        } else {
            link.removeAttribute('aria-current');
        }
    }
}

/** Shows unread counts (API.md's unread JSON). */
export function showCounts(unread) {
    lastCounts = unread;
    countsRequest++;
    setCount(total, unread.total ?? 0);
    document.title = `${unread.total ? `(${unread.total}) ` : ''}Home – Tributary`;
    for (const count of list.querySelectorAll('.source-count')) {
        setCount(count, unread.by_source?.[count.dataset.source] ?? 0);
    }
}

function setCount(target, value) {
    target.textContent = String(value);
    target.classList.toggle('unread', value > 0);
}

/** Fetches the counts again (after marking read): the server's numbers, not a local guess. */
export async function refreshCounts() {
    const request = ++countsRequest;
    try {
        const unread = await get('/api/v1/unread');
        if (request === countsRequest) {
            showCounts(unread);
        }
    } catch (error) {
        // The counts stay as they were; the next mark or live update tries again.
    }
}
