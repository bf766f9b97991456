// The sources page: subscribe to a feed (or a page that names one), follow a person, see every
// subscription in a compact table (filter; sort by name, unread, status or last fetch; "refresh
// now"; a thousand rows stay smooth, since only those in view are in the page), change a subscription's media filter, file it in folders and give it
// a name of one's own, unsubscribe; create and delete folders; and manage the feeds attached to
// one's own profile.

import {unfold} from './layout.js';
import {call, del, get, post} from './api.js';
import {busy, el, showError, time, toast} from './dom.js';
import {windowedRows} from './windowed.js';
import {
    confirmStep, healthDetails, mediaChosen, mediaFieldset, mediaText, showMessage, sourcePage, statusBadge,
    subscribeBody, subscriptions,
} from './follow.js';

const KIND_LABELS = {feed: 'Feed', user: 'Person', group: 'Group'};
const natural = new Intl.Collator(undefined, {numeric: true, sensitivity: 'base'});
const phone = window.matchMedia('(max-width: 760px)');

const table = document.querySelector('#subscription-table');
const list = document.querySelector('#subscriptions');
const listError = document.querySelector('#subscriptions-error');
const loading = document.querySelector('#subscriptions-loading');
const count = document.querySelector('#subscription-count');
const empty = document.querySelector('#subscriptions-empty');
const tools = document.querySelector('#subscription-tools');
const filterBox = document.querySelector('#subscription-filter');
const shownCount = document.querySelector('#subscription-shown');
const none = document.querySelector('#subscriptions-none');
const panel = document.querySelector('#subscription-panel');
// On a phone the forms fold away behind this button, so the table comes first.
const formsToggle = document.querySelector('#source-forms-toggle');

const subscribeForm = document.querySelector('#subscribe-form');
const subscribeMedia = mediaFieldset('subscribe-media');
document.querySelector('#subscribe-media').replaceWith(subscribeMedia);

let folders = [];
let all = [];
let unread = {};
// What the table shows: `all` filtered and sorted; only the rows in view are in the page.
let shown = [];
let sort = {key: 'name', descending: false};
const rows = windowedRows(list, {
    // Phones get two-line, touch-sized rows; the CSS sets the same heights.
    rowHeight: () => (phone.matches ? 60 : 40),
    key: subscription => subscription.id,
    render: row,
    placed: (element, index) => element.setAttribute('aria-rowindex', String(index + 2)),
});
// The subscription whose panel is open, by id (it survives a reload of the list).
let managed = null;

/** Reloads the whole list: after a change the server's answer is the truth (health, filters). */
async function refresh() {
    try {
        const [subscribed, mine, counts] = await Promise.all([subscriptions(), get('/api/v1/folders'),
            get('/api/v1/unread').catch(() => null)]);
        folders = mine;
        all = subscribed;
        unread = counts?.by_source ?? {};
        renderFolders();
        render();
        // The panel shows the subscription as the server now has it (or closes if it is gone).
        if (managed) {
            const current = all.find(subscription => subscription.id === managed);
            if (current) {
                openPanel(current);
            } else {
                closePanel();
            }
        }
        showError(listError, null);
    } catch (error) {
        showError(listError, error);
    } finally {
        loading.hidden = true;
    }
}

function name(subscription) {
    const {source} = subscription;
    return subscription.title || source.title || source.url || 'Untitled source';
}

function unreadOf(subscription) {
    return unread[subscription.source.id] ?? 0;
}

/** Worst first: a feed that is gone, then one in error, then the healthy ones. */
const TROUBLE = {gone: 0, error: 1, retired: 2, ok: 3};

const COMPARE = {
    name: (a, b) => natural.compare(name(a), name(b)),
    unread: (a, b) => unreadOf(b) - unreadOf(a),
    error: (a, b) => (TROUBLE[a.source.status] ?? 3) - (TROUBLE[b.source.status] ?? 3),
    // Oldest fetch first: what has not been fetched for long is what one looks for; never fetched (people, groups) last.
    fetched: (a, b) => fetchedAt(a) - fetchedAt(b),
};

function fetchedAt(subscription) {
    const at = Date.parse(subscription.source.last_fetched_at ?? '');
    return Number.isNaN(at) ? Number.MAX_SAFE_INTEGER : at;
}

/** Lower case, accents set aside: "cafe" finds "Café". */
function folded(text) {
    return String(text ?? '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function matches(subscription, words) {
    if (!words.length) {
        return true;
    }
    const haystack = folded([name(subscription), subscription.source.title, subscription.source.url,
        KIND_LABELS[subscription.source.kind], ...(subscription.folders ?? []).map(folder => folder.name)].join(' '));
    return words.every(word => haystack.includes(word));
}

function render() {
    count.textContent = `(${all.length})`;
    const nothing = !all.length;
    empty.hidden = !nothing;
    empty.replaceChildren(...(nothing
        ? [el('p', {class: 'muted empty'}, 'You don’t follow anything yet. Subscribe to a feed or follow a person.')] : []));
    if (nothing) {
        // No table to put first: the forms are what a new person needs.
        unfold(formsToggle);
    }
    tools.hidden = nothing;
    const words = folded(filterBox.value).split(/\s+/).filter(Boolean);
    const compare = COMPARE[sort.key];
    shown = all.filter(subscription => matches(subscription, words))
        .sort((a, b) => (sort.descending ? -compare(a, b) : compare(a, b)) || COMPARE.name(a, b));
    table.hidden = !shown.length;
    none.hidden = nothing || shown.length > 0;
    table.setAttribute('aria-rowcount', String(shown.length + 1));
    shownCount.textContent = words.length ? `${shown.length} of ${all.length}` : '';
    for (const column of table.querySelectorAll('[role=columnheader][data-sort]')) {
        column.setAttribute('aria-sort', column.dataset.sort !== sort.key ? 'none'
            : (sort.descending !== (column.dataset.sort === 'unread')) ? 'descending' : 'ascending');
    }
    rows.show(shown);
}

/** One dense row: name (and kind), unread, status, last fetched, "refresh now" and "manage". */
function row(subscription) {
    const {source} = subscription;
    const title = name(subscription);
    const count = unreadOf(subscription);
    const status = source.kind === 'feed' ? statusBadge(source.status) : el('span', {class: 'muted'}, '—');
    if (source.last_error) {
        status.title = source.last_error;
    }
    const manage = el('button', {type: 'button', class: 'manage', 'aria-label': `Manage ${title}`,
        'aria-expanded': String(managed === subscription.id), 'aria-controls': 'subscription-panel'}, 'Manage');
    manage.addEventListener('click', () => (managed === subscription.id ? closePanel() : openPanel(subscription, true)));
    const actions = el('span', {role: 'cell', class: 'col-actions'});
    if (source.kind === 'feed' && source.status !== 'gone') {
        const now = el('button', {type: 'button', class: 'refresh-now', 'aria-label': `Refresh ${title} now`}, 'Refresh');
        now.addEventListener('click', () => refreshNow(subscription, now));
        actions.append(now, ' ');
    }
    actions.append(manage);
    return el('div', {role: 'row', class: `table-row subscription-row${managed === subscription.id ? ' managed' : ''}`,
        dataset: {id: subscription.id, source: source.id, kind: source.kind}},
        el('span', {role: 'cell', class: 'col-name'},
            el('a', {class: 'source-link', href: sourcePage(source), title}, title),
            source.kind !== 'feed' ? el('span', {class: 'kind muted'}, ` ${KIND_LABELS[source.kind] ?? source.kind}`) : null),
        el('span', {role: 'cell', class: `col-unread count${count > 0 ? ' unread' : ''}`}, String(count)),
        el('span', {role: 'cell', class: 'col-status'}, status),
        el('span', {role: 'cell', class: 'col-fetched last-fetched'},
            source.kind === 'feed' ? time(source.last_fetched_at) ?? 'Not yet' : ''),
        actions);
}

const clock = new Intl.DateTimeFormat(undefined, {timeStyle: 'short'});

/** "Refresh now": the crawler fetches it within seconds, unless politeness says when instead. */
async function refreshNow(subscription, button) {
    const title = name(subscription);
    button.disabled = true;
    try {
        await post(`/api/v1/subscriptions/${encodeURIComponent(subscription.id)}/refresh`);
        toast(`Fetching ${title} now.`);
    } catch (error) {
        const at = Date.parse(error.problem?.fetch_at ?? '');
        if (error.status === 429 && !Number.isNaN(at)) {
            toast(error.problem.reason === 'server_asked_to_wait'
                ? `The site of ${title} asked us to wait. It will be fetched at ${clock.format(at)}.`
                : `${title} was fetched a moment ago. It will be fetched again by ${clock.format(at)}.`);
        } else {
            toast(error.message);
        }
    } finally {
        button.disabled = false;
    }
}

function closePanel() {
    const was = managed;
    managed = null;
    panel.hidden = true;
    panel.replaceChildren();
    for (const row of rows.drawn().values()) {
        row.classList.remove('managed');
        row.querySelector('.manage')?.setAttribute('aria-expanded', 'false');
    }
    if (was) {
        rows.drawn().get(was)?.querySelector('.manage')?.focus();
    }
}

/** The panel above the table with everything about one subscription: health, filter, folders, unsubscribe. */
function openPanel(subscription, focus = false) {
    managed = subscription.id;
    for (const [id, row] of rows.drawn()) {
        row.classList.toggle('managed', id === managed);
        row.querySelector('.manage')?.setAttribute('aria-expanded', String(id === managed));
    }
    const close = el('button', {type: 'button', class: 'close-panel'}, 'Close');
    close.addEventListener('click', closePanel);
    panel.replaceChildren(details(subscription), close);
    panel.hidden = false;
    if (focus) {
        panel.querySelector('.source-link')?.focus();
    }
}

/** One subscription in full: name and kind, health, its media filter (changeable), folders and unsubscribe. */
function details(subscription) {
    const {source} = subscription;
    const title = name(subscription);
    const error = el('p', {class: 'error', role: 'alert', hidden: true});
    const filed = subscription.folders ?? [];
    const inFolders = el('p', {class: 'subscription-folders'}, 'Folders: ',
        el('span', {class: 'folders-value'}, filed.length ? filed.map(folder => folder.name).join(', ') : 'none'));
    const actions = el('div', {class: 'subscription-actions'});
    const media = el('p', {class: 'media-filter'}, 'Shows: ', el('span', {class: 'media-value'}, mediaText(subscription.media)));
    const item = el('div', {class: 'subscription subscription-details', dataset: {id: subscription.id, source: source.id, kind: source.kind}},
        el('h3', {class: 'subscription-name'},
            el('a', {class: 'source-link', href: sourcePage(source)}, title),
            source.kind !== 'user' ? el('a', {class: 'source-details muted', href: `/sources/${encodeURIComponent(source.id)}`},
                'Source details') : null),
        source.kind === 'feed' && source.url ? el('small', {class: 'source-url'}, source.url) : null,
        subscription.title && source.title && subscription.title !== source.title
            ? el('small', {class: 'muted own-title'}, `Its own title: ${source.title}`) : null,
        healthDetails(source),
        media,
        inFolders,
        actions,
        error);
    if (source.kind === 'feed' && source.status !== 'gone') {
        // A phone's row has no room for "Refresh": it is here instead (the CSS shows it only there).
        const now = el('button', {type: 'button', class: 'panel-refresh'}, 'Refresh now');
        now.addEventListener('click', () => refreshNow(subscription, now));
        actions.append(now);
    }
    const organise = el('button', {type: 'button', class: 'organise'}, 'Rename / folders');
    organise.addEventListener('click', () => editFolders(item, subscription, organise, error));
    actions.append(organise);
    if (source.kind === 'feed') {
        actions.append(fullContentToggle(subscription, error));
    }
    const body = subscribeBody(source);
    if (body) {
        const change = el('button', {type: 'button', class: 'change-media'}, 'Change filter');
        change.addEventListener('click', () => editMedia(item, subscription, body, change, error));
        actions.append(change);
    }
    const unsubscribe = el('button', {type: 'button', class: 'danger unsubscribe'}, 'Unsubscribe');
    unsubscribe.addEventListener('click', () => confirmStep(actions, unsubscribe,
        `Unsubscribe from ${title}? Items already delivered stay in your timeline.`, 'Yes, unsubscribe', async () => {
            await del(`/api/v1/subscriptions/${encodeURIComponent(subscription.id)}`);
            toast(`Unsubscribed from ${title}.`);
            closePanel();
            await refresh();
        }, error));
    actions.append(unsubscribe);
    return item;
}

for (const column of table.querySelectorAll('[role=columnheader][data-sort]')) {
    column.querySelector('button').addEventListener('click', () => {
        const key = column.dataset.sort;
        sort = {key, descending: sort.key === key ? !sort.descending : false};
        render();
    });
}
filterBox.addEventListener('input', () => render());
// A phone's keyboard opening resizes the window too: only the rows are drawn again, the panel stays as it is.
window.addEventListener('resize', () => rows.show());

/**
 * "Always fetch the full article", for feeds that ship only a teaser: each new item's page is read
 * once after it arrives, so "Read full article" answers at once. Saved as soon as it is ticked.
 */
function fullContentToggle(subscription, error) {
    const box = el('input', {type: 'checkbox', class: 'full-content', checked: subscription.full_content});
    box.addEventListener('change', async () => {
        const wanted = box.checked;
        box.disabled = true;
        try {
            showError(error, null);
            const updated = (await call('PATCH', `/api/v1/subscriptions/${encodeURIComponent(subscription.id)}`,
                {json: {full_content: wanted}})).data;
            subscription.full_content = updated.full_content;
            toast(wanted ? 'New articles of this feed will be fetched in full.' : 'Full articles only when you ask.');
        } catch (failure) {
            box.checked = !wanted;
            showError(error, failure);
        } finally {
            box.disabled = false;
        }
    });
    return el('label', {class: 'full-content-choice'}, box, ' Always fetch the full article');
}

/** Re-subscribing to the same source with a new filter updates it (the API answers 200). */
function editMedia(item, subscription, body, change, error) {
    const fieldset = mediaFieldset(`media-${subscription.id}`, subscription.media);
    const save = el('button', {type: 'submit', class: 'primary save-media'}, 'Save filter');
    const cancel = el('button', {type: 'button', class: 'cancel-media'}, 'Cancel');
    const form = el('form', {class: 'media-form'}, fieldset, el('div', {class: 'form-buttons'}, save, ' ', cancel));
    const close = () => {
        form.remove();
        change.hidden = false;
    };
    cancel.addEventListener('click', close);
    form.addEventListener('submit', async event => {
        event.preventDefault();
        // No box ticked means no filter: the same source posted without `media` takes every kind again.
        const media = mediaChosen(fieldset);
        const updated = await busy(save, () => post('/api/v1/subscriptions', media ? {...body, media} : body), error);
        if (updated) {
            toast(`Now showing: ${mediaText(updated.media)}.`);
            await refresh();
        }
    });
    change.hidden = true;
    item.querySelector('.media-filter').after(form);
    fieldset.querySelector('input')?.focus();
}

/** The person's name for a subscription and the folders it is filed in, saved with one PATCH. */
function editFolders(item, subscription, button, error) {
    const filed = new Set((subscription.folders ?? []).map(folder => folder.id));
    const title = el('input', {type: 'text', name: 'title', maxlength: '200', class: 'subscription-title',
        id: `title-${subscription.id}`, placeholder: subscription.source.title || ''});
    title.value = subscription.title ?? '';
    const boxes = folders.map(folder => el('label', {class: 'folder-choice'},
        el('input', {type: 'checkbox', name: 'folder', value: folder.id, checked: filed.has(folder.id)}), ' ', folder.name));
    const save = el('button', {type: 'submit', class: 'primary save-folders'}, 'Save');
    const cancel = el('button', {type: 'button', class: 'cancel-folders'}, 'Cancel');
    const form = el('form', {class: 'folders-form stacked'},
        el('label', {for: `title-${subscription.id}`}, 'Your name for it (empty: its own title)'), title,
        el('fieldset', {}, el('legend', {}, 'Folders'),
            ...(boxes.length ? boxes : [el('p', {class: 'muted'}, 'You have no folders yet: create one first.')])),
        el('div', {class: 'form-buttons'}, save, ' ', cancel));
    const close = () => {
        form.remove();
        button.hidden = false;
    };
    cancel.addEventListener('click', close);
    form.addEventListener('submit', async event => {
        event.preventDefault();
        const folderIds = [...form.querySelectorAll('input[name=folder]:checked')].map(box => box.value);
        const updated = await busy(save, () => call('PATCH', `/api/v1/subscriptions/${encodeURIComponent(subscription.id)}`,
            {json: {title: title.value.trim(), folder_ids: folderIds}}), error);
        if (updated) {
            toast('Saved.');
            await refresh();
        }
    });
    button.hidden = true;
    item.querySelector('.subscription-folders').after(form);
    title.focus();
}

// Folders: create and delete (their subscriptions stay).
const folderForm = document.querySelector('#folder-form');
const folderError = document.querySelector('#folder-error');
const folderList = document.querySelector('#folders');

function renderFolders() {
    folderList.replaceChildren(...(folders.length ? folders.map(folderEntry)
        : [el('li', {class: 'muted empty'}, 'No folders yet.')]));
}

function folderEntry(folder) {
    const remove = el('button', {type: 'button', class: 'link-button delete-folder'}, 'Delete');
    const entry = el('li', {class: 'folder-name', dataset: {folder: folder.id}},
        el('a', {href: `/?folder_id=${encodeURIComponent(folder.id)}`}, folder.name), ' ', remove);
    remove.addEventListener('click', () => confirmStep(entry, remove,
        `Delete the folder ${folder.name}? Its subscriptions stay.`, 'Yes, delete', async () => {
            await del(`/api/v1/folders/${encodeURIComponent(folder.id)}`);
            await refresh();
        }, folderError));
    return entry;
}

folderForm.addEventListener('submit', async event => {
    event.preventDefault();
    const name = folderForm.name.value.trim();
    if (!name) {
        showMessage(folderError, 'Enter a name for the folder.');
        return;
    }
    const created = await busy(folderForm.querySelector('button'), () => post('/api/v1/folders', {name}), folderError);
    if (created) {
        folderForm.reset();
        toast(`Created the folder ${created.name}.`);
        await refresh();
    }
});

subscribeForm.addEventListener('submit', async event => {
    event.preventDefault();
    const result = document.querySelector('#subscribe-result');
    const error = document.querySelector('#subscribe-error');
    result.hidden = true;
    const url = subscribeForm.url.value.trim();
    if (!url) {
        showMessage(error, 'Enter the address of a feed or of a web page that links to one.');
        return;
    }
    const media = mediaChosen(subscribeMedia);
    const button = subscribeForm.querySelector('button[type="submit"]');
    const answer = await busy(button, () => postNew('/api/v1/subscriptions', media ? {url, media} : {url}), error);
    if (answer) {
        const title = answer.data.source.title || answer.data.source.url;
        result.textContent = answer.created ? `Subscribed to ${title}.` : `You are already subscribed to ${title}.`;
        result.hidden = false;
        subscribeForm.reset();
        await refresh();
    }
});

const followForm = document.querySelector('#follow-form');
followForm.addEventListener('submit', async event => {
    event.preventDefault();
    const result = document.querySelector('#follow-result');
    const error = document.querySelector('#follow-error');
    result.hidden = true;
    const user = followForm.username.value.trim().toLowerCase().replace(/^@/, '');
    if (!user) {
        showMessage(error, 'Enter the username of the person to follow.');
        return;
    }
    const answer = await busy(followForm.querySelector('button'), () => postNew('/api/v1/subscriptions', {user}), error);
    if (answer) {
        result.textContent = answer.created ? `You now follow ${user}.` : `You already follow ${user}.`;
        result.hidden = false;
        followForm.reset();
        await refresh();
    }
});

/** POSTs and says whether the answer was a new resource (201) or an existing one (200). */
async function postNew(path, json) {
    const {data, response} = await call('POST', path, {json});
    return {data, created: response.status === 201};
}

// Feeds attached to the reader's own profile.
const profileList = document.querySelector('#profile-feeds');
const profileForm = document.querySelector('#profile-feed-form');
const profileError = document.querySelector('#profile-feed-error');

async function refreshProfileFeeds() {
    try {
        const feeds = await get('/api/v1/me/feeds');
        profileList.replaceChildren(...(feeds.length ? feeds.map(profileFeed)
            : [el('li', {class: 'muted empty'}, 'No feeds on your profile.')]));
    } catch (error) {
        showError(profileError, error);
    }
}

function profileFeed(source) {
    const name = source.title || source.url;
    const detach = el('button', {type: 'button', class: 'link-button detach'}, 'Remove');
    const item = el('li', {class: 'profile-feed', dataset: {source: source.id}},
        el('a', {href: `/sources/${encodeURIComponent(source.id)}`}, name), ' ', detach);
    detach.addEventListener('click', () => confirmStep(item, detach, `Remove ${name} from your profile?`, 'Yes, remove',
        async () => {
            await del(`/api/v1/me/feeds/${encodeURIComponent(source.id)}`);
            await refreshProfileFeeds();
        }, profileError));
    return item;
}

profileForm.addEventListener('submit', async event => {
    event.preventDefault();
    const url = profileForm.url.value.trim();
    if (!url) {
        showMessage(profileError, 'Enter the address of a feed or of a web page that links to one.');
        return;
    }
    const added = await busy(profileForm.querySelector('button'), () => post('/api/v1/me/feeds', {url}), profileError);
    if (added) {
        profileForm.reset();
        toast(`${added.title || added.url} is on your profile.`);
        await refreshProfileFeeds();
    }
});

refresh();
refreshProfileFeeds();
