// The sidebar: the person's folders and subscriptions, each a link that filters the timeline by
// that folder or source, with the unread counts beside them.

import {get} from '../api.js';
import {el} from '../dom.js';
import {toSearch} from './filters.js';

const list = document.querySelector('#source-list');
const folderList = document.querySelector('#folder-list');
const allSources = document.querySelector('#all-sources');
const total = document.querySelector('#unread-total');
const trimmed = document.querySelector('#unread-trimmed');
const loading = document.querySelector('#sources-loading');

let sources = [];
// Folder id → the ids of the sources filed in it.
const folderSources = new Map();
let lastCounts = null;
// Responses to /unread can come back out of order; only the newest request's answer is shown.
let countsRequest = 0;

/**
 * Loads the folders and subscriptions; `onPick({sourceId, folderId})` is called when one is clicked
 * (both '' for all).
 */
export async function loadSources(onPick) {
    allSources.addEventListener('click', event => pick(event, {sourceId: '', folderId: ''}, onPick));
    try {
        const [folders, subscriptions] = await Promise.all([get('/api/v1/folders'), get('/api/v1/subscriptions')]);
        // A subscription's own title (the person's name for it) stands in for the source's.
        sources = subscriptions.map(subscription => ({...subscription.source, title: subscription.title || subscription.source.title}))
            .sort((a, b) => title(a).localeCompare(title(b)));
        folderSources.clear();
        folders.forEach(folder => folderSources.set(folder.id, new Set()));
        subscriptions.forEach(subscription => (subscription.folders ?? [])
            .forEach(folder => folderSources.get(folder.id)?.add(subscription.source.id)));
        folderList.replaceChildren(...folders.map(folder => folderEntry(folder, onPick)));
        folderList.hidden = folders.length === 0;
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

/** Whether a source is filed in a folder (as the sidebar last loaded them). */
export function inFolder(folderId, sourceId) {
    return folderSources.get(folderId)?.has(sourceId) ?? false;
}

function folderEntry(folder, onPick) {
    const link = el('a', {class: 'source-link folder-link', href: '/', dataset: {folder: folder.id}}, folder.name);
    link.addEventListener('click', event => pick(event, {sourceId: '', folderId: folder.id}, onPick));
    return el('li', {class: 'folder', dataset: {folder: folder.id}},
        link,
        el('span', {class: 'count folder-count', dataset: {folder: folder.id}}, '0'));
}

function sourceEntry(source, onPick) {
    const link = el('a', {class: 'source-link', href: '/', dataset: {source: source.id}}, title(source));
    link.addEventListener('click', event => pick(event, {sourceId: source.id, folderId: ''}, onPick));
    return el('li', {dataset: {source: source.id}},
        link,
        source.status && source.status !== 'ok' ? el('span', {class: `badge ${source.status}`}, source.status) : null,
        el('span', {class: 'count source-count', dataset: {source: source.id}}, '0'));
}

function pick(event, selection, onPick) {
    // Modified clicks (new tab, new window) follow the link as is.
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) {
        return;
    }
    event.preventDefault();
    onPick(selection);
}

function title(source) {
    return source.title || source.url || 'Untitled source';
}

/** The source's title, for messages ("Mark all from …"). */
export function sourceTitle(sourceId) {
    const source = sources.find(candidate => candidate.id === sourceId);
    return source ? title(source) : 'this source';
}

/** The folder's name, for messages. */
export function folderName(folderId) {
    const link = folderList.querySelector(`.folder-link[data-folder="${CSS.escape(folderId)}"]`);
    return link ? link.textContent : 'this folder';
}

/** Points every sidebar link at the filters it would give, and highlights the selected source or folder. */
export function showSelection(filters) {
    for (const link of document.querySelectorAll('.source-link')) {
        const sourceId = link.dataset.source ?? '';
        const folderId = link.dataset.folder ?? '';
        link.href = `/${toSearch({...filters, sourceId, folderId})}`;
        const selected = sourceId === filters.sourceId && folderId === filters.folderId;
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
    showTrimmed(unread.trimmed_unread ?? 0);
    document.title = `${unread.total ? `(${unread.total}) ` : ''}Home – Tributary`;
    for (const count of list.querySelectorAll('.source-count')) {
        setCount(count, unread.by_source?.[count.dataset.source] ?? 0);
    }
    for (const count of folderList.querySelectorAll('.folder-count')) {
        setCount(count, unread.by_folder?.[count.dataset.folder] ?? 0);
    }
}

/** Says that older unread entries left the inbox (its size limit or age), so the total is not all there ever was. */
function showTrimmed(count) {
    if (!trimmed) {
        return;
    }
    trimmed.hidden = count <= 0;
    trimmed.textContent = count > 0
        ? `${count} older unread ${count === 1 ? 'entry was' : 'entries were'} trimmed from your inbox (each feed keeps its newest).`
        : '';
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
