// A source's page: what it is, its health, a follow toggle, and its items as far back as they go.

import './layout.js';
import {get} from './api.js';
import {el, showError} from './dom.js';
import {pagedItems, safeUrl} from './items.js';
import {followToggle, healthDetails, notFoundOr, showMessage, sourcePage, subscribeBody} from './follow.js';

const id = document.querySelector('#source-page').dataset.sourceId;
const missing = document.querySelector('#source-missing');
const found = document.querySelector('#source-found');
const error = document.querySelector('#source-error');

async function load() {
    let source;
    try {
        source = await get(`/api/v1/sources/${encodeURIComponent(id)}`);
    } catch (failure) {
        showMessage(missing, notFoundOr(failure, 'This source'));
        return;
    }
    const name = source.title || source.url || 'Untitled source';
    document.title = `${name} – Tributary`;
    document.querySelector('#source-title').textContent = name;
    document.querySelector('#source-about').replaceChildren(...about(source));
    document.querySelector('#source-health').replaceChildren(healthDetails(source));
    found.hidden = false;

    const body = subscribeBody(source);
    if (body) {
        const toggle = followToggle({
            find: list => list.find(subscription => subscription.source.id === source.id),
            body: () => body,
            errorTarget: error,
            label: source.kind === 'feed' ? 'Subscribe' : 'Follow',
        });
        document.querySelector('#source-actions').append(toggle.element);
        toggle.ready.catch(failure => showError(error, failure));
    }
    try {
        await showUnread(source.id);
        await pagedItems(document.querySelector('#source-items'), `/api/v1/sources/${encodeURIComponent(id)}/items`);
    } catch (failure) {
        showError(error, failure);
    }
}

/**
 * The caller's unread items of this source first, as far back as their inbox keeps them (the
 * unread horizon, not only the home page's newest entries), when there are any.
 */
async function showUnread(sourceId) {
    const counts = await get('/api/v1/unread');
    const unread = counts.by_source?.[sourceId] ?? 0;
    if (!unread) {
        return;
    }
    document.querySelector('#source-unread-count').textContent = `(${unread})`;
    document.querySelector('#source-unread-section').hidden = false;
    await pagedItems(document.querySelector('#source-unread'), '/api/v1/timelines/home',
        {limit: 20, source_id: sourceId, unread: 'true'});
}

/** A line saying what the source is, linking to the person's or group's page, or to the feed and its site. */
function about(source) {
    switch (source.kind) {
        case 'user':
            return ['Posts by ', el('a', {class: 'owner-link', href: sourcePage(source)}, source.title ?? 'someone'), '.'];
        case 'group':
            return ['Posts to the group ', el('a', {class: 'owner-link', href: sourcePage(source)}, source.title ?? 'a group'), '.'];
        default:
            return ['Feed at ', el('a', {class: 'feed-url', href: safeUrl(source.url), target: '_blank', rel: 'noopener noreferrer'}, source.url),
                ...(source.site_url ? [' · ', el('a', {href: safeUrl(source.site_url), target: '_blank', rel: 'noopener noreferrer'}, 'website')] : [])];
    }
}

load().catch(failure => showError(error, failure));
