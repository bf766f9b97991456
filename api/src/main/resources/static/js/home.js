// The home page: wires the filters (in the URL), the sidebar's sources and counts, the timeline,
// the live stream, the composer and the keyboard together. Everything goes through the public API.

import './layout.js';
import {call, post} from './api.js';
import {busy, toast} from './dom.js';
import {anySet, compareIds, fromSearch, markerCovers, matches, toSearch} from './home/filters.js';
import {countMark, folderName, inFolder, loadSources, refreshCounts, showSelection, sourceTitle, viewName} from './home/sidebar.js';
import * as timeline from './home/timeline.js';
import {openStream} from './home/live.js';
import {setUpComposer} from './home/composer.js';
import {setUpKeys} from './home/keys.js';
import {setUpDrawers, showSidebar} from './home/drawer.js';

const form = document.querySelector('#filters');
const clear = document.querySelector('#clear-filters');
const markAll = document.querySelector('#mark-all-read');
const markScope = document.querySelector('#mark-all-scope');
const markAge = document.querySelector('#mark-all-age');
const heading = document.querySelector('#home-heading');
const readModeSelect = document.querySelector('#read-mode');

let filters = fromSearch(location.search);
let sources = null;

/** Applies new filters: in the address bar (a history entry, so Back undoes it), the form and the list. */
function apply(next) {
    filters = next;
    const url = `/${toSearch(filters)}`;
    if (url !== location.pathname + location.search) {
        history.pushState(null, '', url);
    }
    show();
}

function show() {
    syncForm();
    showSelection(filters);
    heading.textContent = viewName(filters);
    describeMarkAll();
    timeline.load(filters, {hasSources: () => sources === null || sources.length > 0});
}

function syncForm() {
    for (const box of form.querySelectorAll('input[name=media]')) {
        box.checked = filters.media.includes(box.value);
    }
    form.tag.value = filters.tag;
    form.unread.checked = filters.unread;
    clear.hidden = !anySet(filters);
}

function readForm() {
    return {
        ...filters,
        media: [...form.querySelectorAll('input[name=media]:checked')].map(box => box.value),
        tag: form.tag.value.trim(),
        unread: form.unread.checked,
    };
}

form.addEventListener('change', event => {
    // The tag applies on submit (Enter or the button), not on every keystroke.
    if (event.target.name !== 'tag') {
        apply(readForm());
    }
});
form.addEventListener('submit', event => {
    event.preventDefault();
    apply(readForm());
});
clear.addEventListener('click', () => apply({media: [], tag: '', sourceId: '', folderId: '', unread: false}));
window.addEventListener('popstate', () => {
    filters = fromSearch(location.search);
    show();
});

/** Says what "mark all read" will mark, given the filters and the age chosen: the API's marker knows sources and folders. */
function describeMarkAll() {
    const age = {day: ' a day old', week: ' a week old'}[markAge.value];
    const upTo = ` up to the newest item shown${age ? ` that is at least${age}` : ''}`;
    if (!markerCovers(filters)) {
        markAll.textContent = 'Mark shown read';
        markScope.textContent = 'Marks the items loaded below (media and tag filters are on).';
    } else if (filters.sourceId) {
        markAll.textContent = 'Mark all read';
        markScope.textContent = `Marks everything from ${sourceTitle(filters.sourceId)}${upTo}.`;
    } else if (filters.folderId) {
        markAll.textContent = 'Mark all read';
        markScope.textContent = `Marks everything in ${folderName(filters.folderId)}${upTo}.`;
    } else {
        markAll.textContent = 'Mark all read';
        markScope.textContent = age ? `Marks everything${upTo}, loaded or not.` : '';
    }
}

markAge.addEventListener('change', describeMarkAll);

const DAY = 24 * 60 * 60 * 1000;
const AGES = {day: DAY, week: 7 * DAY};

markAll.addEventListener('click', () => busy(markAll, async () => {
    const loaded = timeline.items();
    // "Older than a day / a week": from the newest item shown that is at least that old, down.
    const cutoff = AGES[markAge.value] ? Date.now() - AGES[markAge.value] : null;
    const newest = cutoff === null ? loaded[0] : loaded.find(item => Date.parse(item.published_at) <= cutoff);
    if (!newest) {
        toast(cutoff === null ? 'Nothing to mark.' : 'Nothing shown is that old.');
        return;
    }
    const covered = loaded.filter(item => compareIds(item.id, newest.id) <= 0);
    if (markerCovers(filters)) {
        await markByMarker(newest, covered);
        return;
    }
    // Media or tag filters: the marker cannot say those, so the items loaded are marked one by one.
    const wereUnread = covered.filter(item => !item.read);
    const marked = await markEach(wereUnread, true);
    toast(`Marked ${items(marked)} read.`, {
        undo: async () => {
            try {
                const restored = await markEach(wereUnread, false);
                toast(`Marked ${items(restored)} unread again.`);
            } catch (failure) {
                toast(failure.message);
            }
        },
    });
}));

/**
 * "Mark all read" through the API's marker: everything in the inbox up to `newest` (of the source
 * or folder shown), loaded or not. The server keeps what it marked, so Undo makes exactly those
 * unread again, loaded or not, and leaves what was read before read.
 */
async function markByMarker(newest, covered) {
    const scope = filters.sourceId ? {source_id: filters.sourceId} : filters.folderId ? {folder_id: filters.folderId} : {};
    const result = await post('/api/v1/markers', {...scope, up_to_id: newest.id});
    covered.forEach(timeline.showRead);
    await refreshCounts();
    if (!result.marked) {
        toast('Nothing to mark: all of it is read.');
        return;
    }
    toast(`Marked ${items(result.marked)} read.`, {
        undo: result.undo_id ? async () => {
            try {
                const undone = await call('DELETE', `/api/v1/markers/${encodeURIComponent(result.undo_id)}`);
                // Which of the loaded items it marked is the server's to say: the list is read again.
                show();
                await refreshCounts();
                toast(`Marked ${items(undone.data.unmarked)} unread again.`);
            } catch (failure) {
                toast(failure.status === 404 ? 'This can no longer be undone.' : failure.message);
            }
        } : undefined,
    });
}

function items(count) {
    return `${count} item${count === 1 ? '' : 's'}`;
}

/** Marks items read (or unread) one by one, a few at a time; stops at the first refusal, after showing what was done. */
async function markEach(items, read) {
    let marked = 0;
    const queue = [...items];
    const worker = async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
            await call(read ? 'POST' : 'DELETE', `/api/v1/items/${encodeURIComponent(item.id)}/read`);
            if (read) {
                timeline.showRead(item);
            } else {
                timeline.showUnread(item);
            }
            marked++;
        }
    };
    try {
        await Promise.all([worker(), worker(), worker(), worker()]);
    } finally {
        await refreshCounts();
    }
    return marked;
}

readModeSelect.value = timeline.readMode();
readModeSelect.addEventListener('change', () => timeline.setReadMode(readModeSelect.value));

timeline.configure({
    onReadChange: (item, read) => {
        countMark(item, read);
        refreshCounts();
    },
    inFolder,
});
openStream({
    item: item => timeline.addLive(item, {streamed: true}),
    delete: id => timeline.remove(id),
    // An event's counts may be older than a mark this page made since (events carry no version):
    // it only says the counts moved, and the page asks for the current ones.
    unread: () => refreshCounts(),
});
setUpComposer(item => {
    timeline.addLive(item);
    return matches(item, filters, inFolder);
});
setUpKeys();
setUpDrawers();
history.replaceState(null, '', `/${toSearch(filters)}`);
show();
refreshCounts();
loadSources(selection => {
    showSidebar(false);
    apply({...filters, ...selection});
}).then(loaded => {
    sources = loaded;
    showSelection(filters);
    heading.textContent = viewName(filters);
    describeMarkAll();
    timeline.showEmpty();
});
