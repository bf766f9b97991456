// The sidebar: the person's folders, each holding its feeds, then the feeds in no folder; each a
// link that filters the timeline by that folder or source, with its unread count. Names sort
// naturally (feed 2 before feed 10); folders fold (kept in this browser); "only feeds with unread"
// hides the rest. A thousand feeds stay smooth: only the rows in view are in the page, placed at
// their offset in a list as tall as all of them (windowed.js).

import {get} from '../api.js';
import {el} from '../dom.js';
import {windowedRows} from '../windowed.js';
import {toSearch} from './filters.js';

const scroller = document.querySelector('#home-sidebar');
const tree = document.querySelector('#feed-tree');
const allSources = document.querySelector('#all-sources');
const total = document.querySelector('#unread-total');
// The phone's drawer button carries the total too: the sidebar is out of sight there.
const drawerTotal = document.querySelector('#drawer-unread');
const trimmed = document.querySelector('#unread-trimmed');
const loading = document.querySelector('#sources-loading');
const unreadOnly = document.querySelector('#sidebar-unread-only');

const COLLAPSED_KEY = 'tributary.collapsed-folders';
const UNREAD_ONLY_KEY = 'tributary.sidebar-unread-only';
const natural = new Intl.Collator(undefined, {numeric: true, sensitivity: 'base'});
const phone = window.matchMedia('(max-width: 760px)');

let sources = [];
let folders = [];
// Folder id → the ids of the sources filed in it.
const folderSources = new Map();
let lastCounts = null;
// Responses to /unread can come back out of order; only the newest request's answer is shown.
let countsRequest = 0;
let selection = {sourceId: '', folderId: ''};
let currentFilters = null;
let pickHandler = () => {};
const treeRows = windowedRows(tree, {
    // Phones get touch-sized rows (44 px); the CSS sets the same heights.
    rowHeight: () => (phone.matches ? 44 : 32),
    key: row => row.key,
    render,
    scroller,
});
const collapsed = new Set(readJson(COLLAPSED_KEY, []));

function readJson(key, fallback) {
    try {
        return JSON.parse(localStorage.getItem(key)) ?? fallback;
    } catch (unreadable) {
        return fallback;
    }
}

function keep(key, value) {
    try {
        localStorage.setItem(key, JSON.stringify(value));
    } catch (unavailable) {
        // Storage off: the choice lasts for this page.
    }
}

/**
 * Loads the folders and subscriptions; `onPick({sourceId, folderId})` is called when one is clicked
 * (both '' for all).
 */
export async function loadSources(onPick) {
    pickHandler = onPick;
    allSources.addEventListener('click', event => pick(event, {sourceId: '', folderId: ''}));
    unreadOnly.checked = readJson(UNREAD_ONLY_KEY, false) === true;
    unreadOnly.addEventListener('change', () => {
        keep(UNREAD_ONLY_KEY, unreadOnly.checked);
        rebuild();
    });
    window.addEventListener('resize', () => {
        rebuild();
    });
    try {
        const [folderList, subscriptions] = await Promise.all([get('/api/v1/folders'), get('/api/v1/subscriptions')]);
        // A subscription's own title (the person's name for it) stands in for the source's.
        sources = subscriptions.map(subscription => ({...subscription.source, title: subscription.title || subscription.source.title}))
            .sort((a, b) => natural.compare(title(a), title(b)));
        folders = [...folderList].sort((a, b) => natural.compare(a.name, b.name));
        folderSources.clear();
        folders.forEach(folder => folderSources.set(folder.id, new Set()));
        subscriptions.forEach(subscription => (subscription.folders ?? [])
            .forEach(folder => folderSources.get(folder.id)?.add(subscription.source.id)));
        loading.hidden = true;
    } catch (error) {
        loading.textContent = `Your subscriptions could not be loaded: ${error.message}`;
        loading.classList.add('error');
    }
    if (lastCounts) {
        showCounts(lastCounts);
    } else {
        rebuild();
    }
    return sources;
}

/** Whether a source is filed in a folder (as the sidebar last loaded them). */
export function inFolder(folderId, sourceId) {
    return folderSources.get(folderId)?.has(sourceId) ?? false;
}

function sourceCount(sourceId) {
    return lastCounts?.by_source?.[sourceId] ?? 0;
}

function folderCount(folderId) {
    return lastCounts?.by_folder?.[folderId] ?? 0;
}

/** The rows as the tree shows them now: folded folders hide their feeds; "only unread" hides empty ones. */
function rebuild() {
    const only = unreadOnly.checked;
    // The selected folder or feed stays, even at 0, so the person sees where they are.
    const shows = (count, selected) => !only || count > 0 || selected;
    const rows = [];
    const filed = new Set();
    for (const folder of folders) {
        const members = folderSources.get(folder.id);
        members.forEach(id => filed.add(id));
        if (!shows(folderCount(folder.id), selection.folderId === folder.id)) {
            continue;
        }
        const open = !collapsed.has(folder.id);
        rows.push({key: `f${folder.id}`, folder, open});
        if (open) {
            for (const source of sources) {
                if (members.has(source.id) && shows(sourceCount(source.id), selection.sourceId === source.id)) {
                    rows.push({key: `f${folder.id}s${source.id}`, source, nested: true});
                }
            }
        }
    }
    for (const source of sources) {
        if (!filed.has(source.id) && shows(sourceCount(source.id), selection.sourceId === source.id)) {
            rows.push({key: `s${source.id}`, source});
        }
    }
    // Rows are drawn afresh (counts, selection); keyboard focus on one comes back to its new self.
    const focused = tree.contains(document.activeElement) ? document.activeElement : null;
    const focusedKey = focused ? [...treeRows.drawn()].find(([, element]) => element.contains(focused))?.[0] : null;
    const focusedClass = focused?.classList.contains('folder-toggle') ? '.folder-toggle' : '.source-link';
    treeRows.show(rows);
    if (focusedKey) {
        treeRows.drawn().get(focusedKey)?.querySelector(focusedClass)?.focus({preventScroll: true});
    }
}

function render(row) {
    if (row.folder) {
        const folder = row.folder;
        const toggle = el('button', {type: 'button', class: 'folder-toggle', 'aria-expanded': String(row.open),
            'aria-label': `${row.open ? 'Fold' : 'Unfold'} ${folder.name}`}, row.open ? '▾' : '▸');
        toggle.addEventListener('click', () => fold(folder.id));
        const link = el('a', {class: 'source-link folder-link', href: hrefFor('', folder.id), dataset: {folder: folder.id}}, folder.name);
        link.addEventListener('click', event => pick(event, {sourceId: '', folderId: folder.id}));
        mark(link, selection.folderId === folder.id && !selection.sourceId);
        return el('li', {class: 'tree-row folder', dataset: {folder: folder.id}},
            toggle, link, countBadge('folder-count', {folder: folder.id}, folderCount(folder.id)));
    }
    const source = row.source;
    const link = el('a', {class: 'source-link', href: hrefFor(source.id, ''), dataset: {source: source.id}, title: title(source)},
        title(source));
    link.addEventListener('click', event => pick(event, {sourceId: source.id, folderId: ''}));
    mark(link, selection.sourceId === source.id);
    return el('li', {class: `tree-row${row.nested ? ' nested' : ''}`, dataset: {source: source.id}},
        link,
        source.status && source.status !== 'ok' ? el('span', {class: `badge ${source.status}`}, source.status) : null,
        countBadge('source-count', {source: source.id}, sourceCount(source.id)));
}

function countBadge(kind, dataset, value) {
    return el('span', {class: `count ${kind}${value > 0 ? ' unread' : ''}`, dataset}, String(value));
}

function fold(folderId) {
    if (collapsed.has(folderId)) {
        collapsed.delete(folderId);
    } else {
        collapsed.add(folderId);
    }
    keep(COLLAPSED_KEY, [...collapsed]);
    rebuild();
    tree.querySelector(`.folder[data-folder="${CSS.escape(folderId)}"] .folder-toggle`)?.focus();
}

function hrefFor(sourceId, folderId) {
    return currentFilters ? `/${toSearch({...currentFilters, sourceId, folderId})}` : '/';
}

function mark(link, selected) {
    link.classList.toggle('selected', selected);
    if (selected) {
        link.setAttribute('aria-current', 'true');
    } else {
        link.removeAttribute('aria-current');
    }
}

function pick(event, picked) {
    // Modified clicks (new tab, new window) follow the link as is.
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) {
        return;
    }
    event.preventDefault();
    pickHandler(picked);
}

function title(source) {
    return source.title || source.url || 'Untitled source';
}

/** The source's title, for messages ("Mark all from …") and the heading. */
export function sourceTitle(sourceId) {
    const source = sources.find(candidate => candidate.id === sourceId);
    return source ? title(source) : 'this source';
}

/** The folder's name, for messages and the heading. */
export function folderName(folderId) {
    return folders.find(folder => folder.id === folderId)?.name ?? 'this folder';
}

/** What the timeline shows, for the heading and the tab: a feed's or folder's name, else Home. */
export function viewName(filters) {
    if (filters.sourceId && sources.some(source => source.id === filters.sourceId)) {
        return sourceTitle(filters.sourceId);
    }
    if (filters.folderId && folders.some(folder => folder.id === filters.folderId)) {
        return folderName(filters.folderId);
    }
    return 'Home';
}

/** Points every sidebar link at the filters it would give, and highlights the selected source or folder. */
export function showSelection(filters) {
    currentFilters = filters;
    selection = {sourceId: filters.sourceId, folderId: filters.folderId};
    allSources.href = hrefFor('', '');
    mark(allSources, !filters.sourceId && !filters.folderId);
    rebuild();
}

/** Shows unread counts (API.md's unread JSON). */
export function showCounts(unread) {
    lastCounts = unread;
    countsRequest++;
    setCount(total, unread.total ?? 0);
    setCount(drawerTotal, unread.total ?? 0);
    showTrimmed(unread.trimmed_unread ?? 0);
    document.title = `${unread.total ? `(${unread.total}) ` : ''}${currentFilters ? viewName(currentFilters) : 'Home'} – Tributary`;
    rebuild();
}

/**
 * Moves the counts at once for a mark just made on this page (the server's numbers follow with
 * refreshCounts, and replace these).
 */
export function countMark(item, read) {
    if (!lastCounts) {
        return;
    }
    const delta = read ? -1 : 1;
    const sourceId = item.source?.id;
    const next = {...lastCounts, by_source: {...lastCounts.by_source}, by_folder: {...lastCounts.by_folder}};
    next.total = Math.max(0, (next.total ?? 0) + delta);
    if (sourceId) {
        next.by_source[sourceId] = Math.max(0, (next.by_source[sourceId] ?? 0) + delta);
        for (const [folderId, members] of folderSources) {
            if (members.has(sourceId)) {
                next.by_folder[folderId] = Math.max(0, (next.by_folder[folderId] ?? 0) + delta);
            }
        }
    }
    showCounts(next);
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
