// The home page: wires the filters (in the URL), the sidebar's sources and counts, the timeline,
// the live stream, the composer and the keyboard together. Everything goes through the public API.

import './layout.js';
import {call, post} from './api.js';
import {busy, toast} from './dom.js';
import {anySet, fromSearch, markerCovers, matches, toSearch} from './home/filters.js';
import {folderName, inFolder, loadSources, refreshCounts, showCounts, showSelection, sourceTitle} from './home/sidebar.js';
import * as timeline from './home/timeline.js';
import {openStream} from './home/live.js';
import {setUpComposer} from './home/composer.js';
import {setUpKeys} from './home/keys.js';

const form = document.querySelector('#filters');
const clear = document.querySelector('#clear-filters');
const markAll = document.querySelector('#mark-all-read');
const markScope = document.querySelector('#mark-all-scope');

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

/** Says what "mark all read" will mark, given the filters: the API's marker knows sources and folders. */
function describeMarkAll() {
    if (!markerCovers(filters)) {
        markAll.textContent = 'Mark shown read';
        markScope.textContent = 'Marks the items loaded below (media and tag filters are on).';
    } else if (filters.sourceId) {
        markAll.textContent = 'Mark all read';
        markScope.textContent = `Marks everything from ${sourceTitle(filters.sourceId)} up to the newest item shown.`;
    } else if (filters.folderId) {
        markAll.textContent = 'Mark all read';
        markScope.textContent = `Marks everything in ${folderName(filters.folderId)} up to the newest item shown.`;
    } else {
        markAll.textContent = 'Mark all read';
        markScope.textContent = '';
    }
}

markAll.addEventListener('click', () => busy(markAll, async () => {
    const loaded = timeline.items();
    if (!loaded.length) {
        toast('Nothing to mark.');
        return;
    }
    let marked;
    if (markerCovers(filters)) {
        const result = await post('/api/v1/markers', filters.sourceId ? {up_to_id: loaded[0].id, source_id: filters.sourceId}
            : filters.folderId ? {up_to_id: loaded[0].id, folder_id: filters.folderId} : {up_to_id: loaded[0].id});
        marked = result.marked;
        loaded.forEach(timeline.showRead);
    } else {
        marked = await markEach(loaded.filter(item => !item.read));
    }
    toast(`Marked ${marked} item${marked === 1 ? '' : 's'} read.`);
    await refreshCounts();
}));

/** Marks items read one by one, a few at a time; stops at the first refusal, after showing what was done. */
async function markEach(unread) {
    let marked = 0;
    const queue = [...unread];
    const worker = async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
            await call('POST', `/api/v1/items/${encodeURIComponent(item.id)}/read`);
            timeline.showRead(item);
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

timeline.configure({onReadChange: () => refreshCounts(), inFolder});
openStream({
    item: item => timeline.addLive(item, {streamed: true}),
    delete: id => timeline.remove(id),
    unread: showCounts,
});
setUpComposer(item => {
    timeline.addLive(item);
    return matches(item, filters, inFolder);
});
setUpKeys();
history.replaceState(null, '', `/${toSearch(filters)}`);
show();
refreshCounts();
loadSources(selection => apply({...filters, ...selection})).then(loaded => {
    sources = loaded;
    showSelection(filters);
    describeMarkAll();
    timeline.showEmpty();
});
