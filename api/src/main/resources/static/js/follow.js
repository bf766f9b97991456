// What the sources, people and groups pages share: finding the reader's subscription to a source,
// a follow/unfollow toggle, a source's health, the media-type filter and a confirmation step.

import {ApiError, del, get, post} from './api.js';
import {busy, el, showError, time, toast} from './dom.js';

export const MEDIA_TYPES = ['text', 'link', 'image', 'video', 'audio'];
const MEDIA_LABELS = {text: 'Text', link: 'Links', image: 'Images', video: 'Videos', audio: 'Audio'};

/** The reader's subscriptions (API.md's `subscription`), fetched fresh: other tabs may have changed them. */
export const subscriptions = () => get('/api/v1/subscriptions');

/** The groups the reader belongs to ({id, name, source_id, owner_id}). */
export const myGroups = () => get('/api/v1/groups');

/** Where a source's page for people is: a person's profile, a group's page, else the source page. */
export function sourcePage(source) {
    if (source.kind === 'user' && source.title) {
        return `/people/${encodeURIComponent(source.title)}`;
    }
    if (source.kind === 'group' && source.group_id) {
        return `/groups/${encodeURIComponent(source.group_id)}`;
    }
    return `/sources/${encodeURIComponent(source.id)}`;
}

/** The body that subscribes to `source` again (to follow it or to change its filter); null if it can't be named. */
export function subscribeBody(source) {
    switch (source.kind) {
        case 'feed':
            return source.url ? {url: source.url} : null;
        case 'user':
            return source.title ? {user: source.title} : null;
        case 'group':
            return source.group_id ? {group_id: source.group_id} : null;
        default:
            return null;
    }
}

/** A status badge: ok, error or gone. */
export function statusBadge(status) {
    const labels = {ok: 'OK', error: 'Error', gone: 'Gone'};
    return el('span', {class: `badge status ${status}`}, labels[status] ?? status);
}

/**
 * A source's crawl health as a small description list: status, when it was last fetched and is
 * next due, and the last error. People's and groups' sources are never fetched, so they only say so.
 */
export function healthDetails(source) {
    if (source.kind !== 'feed') {
        return el('p', {class: 'health-note muted'}, statusBadge(source.status), ' Posts arrive as they are written; nothing is fetched.');
    }
    return el('dl', {class: 'health'},
        el('dt', {}, 'Status'), el('dd', {}, statusBadge(source.status)),
        el('dt', {}, 'Last fetched'), el('dd', {class: 'last-fetched'}, time(source.last_fetched_at) ?? 'Not yet'),
        el('dt', {}, 'Next fetch'), el('dd', {class: 'next-fetch'},
            time(source.next_fetch_at) ?? (source.status === 'gone' ? 'Never: the feed is gone' : 'Not scheduled')),
        source.last_error ? [el('dt', {}, 'Last error'), el('dd', {class: 'last-error'}, source.last_error)] : null);
}

/** Media-type checkboxes; none ticked means every type. */
export function mediaFieldset(prefix, selected = null) {
    return el('fieldset', {class: 'media-choice'},
        el('legend', {}, 'Only these kinds of items (none ticked: all)'),
        MEDIA_TYPES.map(type => el('label', {for: `${prefix}-${type}`},
            el('input', {type: 'checkbox', id: `${prefix}-${type}`, name: 'media', value: type,
                checked: Boolean(selected?.includes(type))}),
            ` ${MEDIA_LABELS[type]}`)));
}

/** The ticked media types of a fieldset, or null (no filter) when none is ticked. */
export function mediaChosen(fieldset) {
    const chosen = [...fieldset.querySelectorAll('input[name="media"]:checked')].map(box => box.value);
    return chosen.length ? chosen : null;
}

/** A subscription's filter in words. */
export function mediaText(media) {
    return media?.length ? media.map(type => MEDIA_LABELS[type] ?? type).join(', ') : 'All kinds';
}

/**
 * A "Follow" / "Unfollow" button for one source. `find(list)` picks the reader's subscription to
 * it from their subscriptions; `body` is what POST /subscriptions needs to follow it. Unfollowing
 * asks first. `onChange(subscription|null)` hears about every change.
 */
export function followToggle({find, body, errorTarget, label = 'Follow', onChange}) {
    let current = null;
    const button = el('button', {type: 'button', class: 'follow primary', 'aria-live': 'polite'}, label);
    const wrap = el('span', {class: 'follow-toggle'}, button);
    const render = () => {
        button.textContent = current ? 'Unfollow' : label;
        button.classList.toggle('primary', !current);
        button.setAttribute('aria-pressed', String(Boolean(current)));
    };
    const unfollow = async () => {
        await del(`/api/v1/subscriptions/${encodeURIComponent(current.id)}`);
        current = null;
        render();
        onChange?.(null);
        toast('Unfollowed.');
    };
    button.addEventListener('click', async () => {
        if (current) {
            confirmStep(wrap, button, 'Stop following? Items already delivered stay in your timeline.', 'Yes, unfollow',
                unfollow, errorTarget);
            return;
        }
        await busy(button, async () => {
            current = await post('/api/v1/subscriptions', body());
            render();
            onChange?.(current);
        }, errorTarget);
    });
    // Asks the server again (e.g. after joining a group, which follows it).
    const sync = () => subscriptions().then(list => {
        current = find(list) ?? null;
        render();
        return current;
    });
    return {element: wrap, ready: sync(), sync};
}

/**
 * Asks before a destructive action: hides `button` and shows the question with a confirm and a
 * cancel button inside `container`; runs `action` (with progress and errors) on confirmation.
 */
export function confirmStep(container, button, question, yesLabel, action, errorTarget) {
    const yes = el('button', {type: 'button', class: 'danger confirm-yes'}, yesLabel);
    const no = el('button', {type: 'button', class: 'confirm-no'}, 'Cancel');
    const box = el('span', {class: 'confirm', role: 'group', 'aria-label': question}, el('span', {}, question), ' ', yes, ' ', no);
    const close = () => {
        box.remove();
        button.hidden = false;
        button.focus();
    };
    no.addEventListener('click', close);
    yes.addEventListener('click', async () => {
        no.disabled = true;
        const done = await busy(yes, async () => {
            await action();
            return true;
        }, errorTarget);
        no.disabled = false;
        if (done && box.isConnected) {
            close();
        }
    });
    button.hidden = true;
    container.append(box);
    yes.focus();
}

/** A readable sentence for an API refusal that names nothing (404), else the server's own words. */
export function notFoundOr(error, what) {
    return error instanceof ApiError && error.status === 404 ? `${what} was not found.` : error.message;
}

/** Shows `message` in `target` as an error (role=alert in the template). */
export function showMessage(target, message) {
    showError(target, message ? {message} : null);
}
