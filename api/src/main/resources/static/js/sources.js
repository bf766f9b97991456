// The sources page: subscribe to a feed (or a page that names one), follow a person, see every
// subscription with its health, change a subscription's media filter, file it in folders and give it
// a name of one's own, unsubscribe; create and delete folders; and manage the feeds attached to
// one's own profile.

import './layout.js';
import {call, del, get, post} from './api.js';
import {busy, el, showError, toast} from './dom.js';
import {
    confirmStep, healthDetails, mediaChosen, mediaFieldset, mediaText, showMessage, sourcePage,
    subscribeBody, subscriptions,
} from './follow.js';

const KINDS = [['feed', 'Feeds'], ['user', 'People'], ['group', 'Groups']];

const list = document.querySelector('#subscriptions');
const listError = document.querySelector('#subscriptions-error');
const loading = document.querySelector('#subscriptions-loading');
const count = document.querySelector('#subscription-count');

const subscribeForm = document.querySelector('#subscribe-form');
const subscribeMedia = mediaFieldset('subscribe-media');
document.querySelector('#subscribe-media').replaceWith(subscribeMedia);

let folders = [];

/** Reloads the whole list: after a change the server's answer is the truth (health, filters). */
async function refresh() {
    try {
        const [all, mine] = await Promise.all([subscriptions(), get('/api/v1/folders')]);
        folders = mine;
        renderFolders();
        render(all);
        showError(listError, null);
    } catch (error) {
        showError(listError, error);
    } finally {
        loading.hidden = true;
    }
}

function render(all) {
    count.textContent = `(${all.length})`;
    if (!all.length) {
        list.replaceChildren(el('p', {class: 'muted empty'}, 'You don’t follow anything yet. Subscribe to a feed or follow a person.'));
        return;
    }
    list.replaceChildren(...KINDS.map(([kind, heading]) => {
        const ofKind = all.filter(subscription => subscription.source.kind === kind);
        return ofKind.length ? el('section', {class: `subscriptions-${kind}`},
            el('h3', {}, `${heading} (${ofKind.length})`),
            el('ul', {class: 'plain subscription-list'}, ofKind.map(row))) : null;
    }).filter(Boolean));
}

/** One subscription: name and kind, health, its media filter (changeable) and unsubscribe. */
function row(subscription) {
    const {source} = subscription;
    const name = subscription.title || source.title || source.url || 'Untitled source';
    const error = el('p', {class: 'error', role: 'alert', hidden: true});
    const filed = subscription.folders ?? [];
    const inFolders = el('p', {class: 'subscription-folders'}, 'Folders: ',
        el('span', {class: 'folders-value'}, filed.length ? filed.map(folder => folder.name).join(', ') : 'none'));
    const actions = el('div', {class: 'subscription-actions'});
    const media = el('p', {class: 'media-filter'}, 'Shows: ', el('span', {class: 'media-value'}, mediaText(subscription.media)));
    const item = el('li', {class: 'subscription', dataset: {id: subscription.id, source: source.id, kind: source.kind}},
        el('div', {class: 'subscription-name'},
            el('a', {class: 'source-link', href: sourcePage(source)}, name),
            source.kind !== 'user' ? el('a', {class: 'source-details muted', href: `/sources/${encodeURIComponent(source.id)}`},
                'source details') : null),
        source.kind === 'feed' && source.url ? el('small', {class: 'source-url'}, source.url) : null,
        subscription.title && source.title && subscription.title !== source.title
            ? el('small', {class: 'muted own-title'}, `Its own title: ${source.title}`) : null,
        healthDetails(source),
        media,
        inFolders,
        actions,
        error);
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
        `Unsubscribe from ${name}? Items already delivered stay in your timeline.`, 'Yes, unsubscribe', async () => {
            await del(`/api/v1/subscriptions/${encodeURIComponent(subscription.id)}`);
            toast(`Unsubscribed from ${name}.`);
            await refresh();
        }, error));
    actions.append(unsubscribe);
    return item;
}

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
