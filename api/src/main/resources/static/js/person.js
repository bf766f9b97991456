// A person's page: their posts and attached feeds as far back as they go, follow / unfollow, and
// their public RSS and Atom feeds.

import {me} from './layout.js';
import {ApiError} from './api.js';
import {showError} from './dom.js';
import {pagedItems} from './items.js';
import {followToggle, showMessage} from './follow.js';

const username = document.querySelector('#person-page').dataset.username;
const error = document.querySelector('#person-error');

async function load() {
    try {
        await pagedItems(document.querySelector('#person-items'), `/api/v1/users/${encodeURIComponent(username)}/feed`);
    } catch (failure) {
        if (failure instanceof ApiError && failure.status === 404) {
            document.querySelector('#person-found').hidden = true;
            showMessage(document.querySelector('#person-missing'), `Nobody is called ${username}.`);
            return;
        }
        showError(error, failure);
    }
    const self = await me.catch(() => null);
    if (self?.username === username) {
        // Following oneself is refused: one's own posts already reach one's home timeline.
        document.querySelector('#person-self').hidden = false;
        return;
    }
    const toggle = followToggle({
        find: list => list.find(s => s.source.kind === 'user' && s.source.title === username),
        body: () => ({user: username}),
        errorTarget: error,
    });
    document.querySelector('#person-actions').append(toggle.element);
    toggle.ready.catch(failure => showError(error, failure));
}

load();
