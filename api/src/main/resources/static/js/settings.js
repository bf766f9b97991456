// The settings page: the account, the private feed addresses, OPML out and in, personal access
// tokens, how to connect reader apps, the password and authorised apps, all through the public API.

import {ApiError, call, get} from './api.js';
import {busy, el, showError, time, toast} from './dom.js';
import {me} from './layout.js';
import {confirmAction} from './confirm.js';

/** The API refuses larger bodies (413); saying so before sending spares uploading it. */
const MAX_OPML_BYTES = 2 * 1024 * 1024;

const $ = selector => document.querySelector(selector);
const pageError = $('#settings-error');
const dateFormat = new Intl.DateTimeFormat(undefined, {dateStyle: 'long'});

let person = null;

async function load() {
    try {
        person = await me;
    } catch (error) {
        showError(pageError, error);
        return;
    }
    showAccount(person);
    showReaderApps(person.username);
    // Each list reports its own failure, so one refusal doesn't blank the page.
    loadTokens();
    loadApps();
}

function showAccount(account) {
    $('#account-username').textContent = account.username;
    const since = $('#account-since');
    since.replaceChildren(el('time', {datetime: account.created_at}, dateFormat.format(new Date(account.created_at))));
}

// ---- Private feed -------------------------------------------------------------------------

// Only a hash of the feed token is kept, so the addresses exist on this page only after making
// new ones, until it is left: they are shown this once.
function showFeedUrls(token) {
    const url = extension => `${location.origin}/feeds/home.${extension}?token=${encodeURIComponent(token)}`;
    $('#feed-rss').value = url('rss');
    $('#feed-atom').value = url('atom');
    $('#feed-urls').hidden = false;
    $('#feed-hidden').hidden = true;
}

$('#rotate-feed').addEventListener('click', async event => {
    const button = event.currentTarget;
    const confirmed = await confirmAction(
        'Make a new private feed url? Any made before stop working at once: every feed reader using them must be given the new one.',
        'Make a new url');
    if (!confirmed) {
        return;
    }
    const updated = await busy(button, async () => (await call('POST', '/api/v1/me/feed_token')).data, $('#feed-error'));
    if (updated) {
        showFeedUrls(updated.feed_token);
        $('#feed-copy-status').textContent = '';
        toast('New feed addresses made; the old ones no longer work.');
    }
});

// ---- Copy buttons -------------------------------------------------------------------------

document.addEventListener('click', event => {
    const button = event.target.closest('button.copy');
    if (button) {
        copy($(`#${button.dataset.copy}`), button.closest('section').querySelector('.copy-status'));
    }
});

/**
 * Copies a field's text. The clipboard API exists only in secure contexts (not on plain http
 * off localhost) and may be refused; then the text is left selected for the person to copy.
 */
async function copy(field, status) {
    field.focus();
    field.select();
    try {
        if (!navigator.clipboard) {
            throw new Error('no clipboard');
        }
        await navigator.clipboard.writeText(field.value);
        status.textContent = 'Copied.';
    } catch (unavailable) {
        status.textContent = 'Selected: press Ctrl+C (⌘C on a Mac) to copy.';
    }
}

// ---- OPML ---------------------------------------------------------------------------------

$('#opml-form').addEventListener('submit', async event => {
    event.preventDefault();
    const errorTarget = $('#opml-error');
    const result = $('#opml-result');
    const file = $('#opml-file').files[0];
    result.hidden = true;
    if (!file) {
        showError(errorTarget, new Error('Choose an OPML file to import first.'));
        return;
    }
    if (file.size > MAX_OPML_BYTES) {
        showError(errorTarget, new Error(`That file is ${megabytes(file.size)}; files up to 2 MB can be imported.`));
        return;
    }
    const imported = await busy(event.submitter ?? $('#opml-form button'), async () => {
        const text = await file.text();
        return (await call('POST', '/api/v1/subscriptions/import', {body: text, contentType: 'text/x-opml'})).data;
    }, errorTarget);
    if (imported) {
        showImport(imported);
        $('#opml-form').reset();
    }
});

function megabytes(bytes) {
    return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function showImport({imported, skipped, errors, retrying = []}) {
    const feeds = n => `${n} feed${n === 1 ? '' : 's'}`;
    const parts = [`Subscribed to ${feeds(imported)}.`];
    if (skipped) {
        parts.push(`${feeds(skipped)} you already follow ${skipped === 1 ? 'was' : 'were'} left as ${skipped === 1 ? 'it was' : 'they were'}.`);
    }
    if (errors.length) {
        parts.push(`${feeds(errors.length)} could not be added:`);
    }
    const listed = (items, className) => el('ul', {class: className},
        items.map(error => el('li', {}, el('code', {}, error.url || '(no address)'), ` — ${error.message}`)));
    const result = $('#opml-result');
    // Subscribed all the same: their sites failed for now (a 5xx, say) and will be tried again.
    const retried = retrying.length ? [
        el('p', {class: 'opml-summary'}, `${feeds(retrying.length)} did not answer properly and will be tried again:`),
        listed(retrying, 'opml-retrying')] : [];
    result.replaceChildren(el('p', {class: 'opml-summary'}, parts.join(' ')),
        errors.length ? listed(errors, 'opml-errors') : null, ...retried);
    result.hidden = false;
}

// ---- Personal access tokens ---------------------------------------------------------------

// A Fever token must read and write (the API refuses one without): ticking Fever ticks both.
$('#token-fever').addEventListener('change', event => {
    if (event.currentTarget.checked) {
        for (const box of document.querySelectorAll('#token-form input[name=scope][value=read], #token-form input[name=scope][value=write]')) {
            box.checked = true;
        }
    }
});

async function loadTokens() {
    const list = $('#token-list');
    try {
        const tokens = await get('/api/v1/tokens');
        list.replaceChildren(...tokens.map(tokenView));
        $('#no-tokens').hidden = tokens.length > 0;
    } catch (error) {
        showError($('#token-list-error'), error);
    }
}

function tokenView(token) {
    const revoke = el('button', {type: 'button', class: 'danger revoke'}, 'Revoke');
    const item = el('li', {class: 'listed token', dataset: {id: token.id}},
        el('strong', {class: 'token-name'}, token.name),
        el('span', {class: 'badge'}, token.scopes.join(' + ')),
        token.fever ? el('span', {class: 'badge fever'}, 'Fever') : null,
        el('small', {}, 'created ', time(token.created_at)),
        revoke);
    revoke.addEventListener('click', async () => {
        if (!await confirmAction(`Revoke the token “${token.name}”? Anything using it stops working at once.`, 'Revoke token')) {
            return;
        }
        const revoked = await busy(revoke, async () => {
            await call('DELETE', `/api/v1/tokens/${encodeURIComponent(token.id)}`);
            return true;
        }, $('#token-list-error'));
        if (revoked) {
            item.remove();
            $('#no-tokens').hidden = $('#token-list').children.length > 0;
            toast(`Token “${token.name}” revoked.`);
        }
    });
    return item;
}

$('#token-form').addEventListener('submit', async event => {
    event.preventDefault();
    const form = event.currentTarget;
    const errorTarget = $('#token-error');
    // By id: form.name would be the form's own name attribute to a reader of this code.
    const name = $('#token-name').value.trim();
    const scopes = [...form.querySelectorAll('input[name=scope]:checked')].map(box => box.value);
    const password = $('#token-password').value;
    const fever = $('#token-fever').checked;
    const missing = !name ? 'Give the token a name, so you know later what uses it.'
        : !scopes.length ? 'Choose at least one of read, write and account.'
        : fever && !(scopes.includes('read') && scopes.includes('write'))
            ? 'A token for Fever apps needs both read and write: Fever apps mark items and cannot show a refusal.'
        : !password ? 'Enter your password to create a token.' : null;
    if (missing) {
        showError(errorTarget, new Error(missing));
        return;
    }
    const created = await busy(form.querySelector('button[type=submit]'), async () => {
        try {
            return (await call('POST', '/api/v1/tokens', {json: {name, scopes, fever},
                headers: {Authorization: basic(person.username, password)}})).data;
        } catch (error) {
            // With an Authorization header a 401 is about the password, not the session.
            throw error instanceof ApiError && error.status === 401
                ? new Error('That password is wrong. Check it and try again.') : error;
        }
    }, errorTarget);
    $('#token-password').value = '';
    if (created) {
        form.reset();
        showNewToken(created.token);
        loadTokens();
    }
});

/**
 * An HTTP Basic header. btoa() takes only Latin-1, so the credentials are encoded as UTF-8 first
 * (what the server decodes), letting any password through.
 */
function basic(username, password) {
    const bytes = new TextEncoder().encode(`${username}:${password}`);
    let binary = '';
    for (const byte of bytes) {
        binary += String.fromCharCode(byte);
    }
    return `Basic ${btoa(binary)}`;
}

function showNewToken(secret) {
    $('#new-token-value').value = secret;
    $('#token-copy-status').textContent = '';
    $('#new-token').hidden = false;
    $('#new-token-value').focus();
    $('#new-token-value').select();
}

// Once dismissed, the secret is gone from the page: the API never shows it again either.
$('#new-token-done').addEventListener('click', () => {
    $('#new-token-value').value = '';
    $('#new-token').hidden = true;
});

// ---- Reader apps and password ------------------------------------------------------------

function showReaderApps(username) {
    $('#reader-server').textContent = location.origin;
    $('#fever-server').textContent = `${location.origin}/fever/`;
    document.querySelectorAll('.reader-username').forEach(code => { code.textContent = username; });
}

$('#password-form').addEventListener('submit', async event => {
    event.preventDefault();
    const form = event.currentTarget;
    const errorTarget = $('#password-error');
    const current = $('#current-password').value;
    const next = $('#new-password').value;
    const missing = !current ? 'Enter your current password.'
        : next.length < 8 || next.length > 72 ? 'The new password needs 8 to 72 characters.' : null;
    if (missing) {
        showError(errorTarget, new Error(missing));
        return;
    }
    const changed = await busy(form.querySelector('button[type=submit]'), async () => {
        try {
            await call('POST', '/api/v1/me/password', {json: {current_password: current, new_password: next}});
            return true;
        } catch (error) {
            throw error instanceof ApiError && error.status === 400
                && (error.problem.errors ?? []).some(e => e.field === 'current_password')
                ? new Error('Your current password is wrong. Check it and try again.') : error;
        }
    }, errorTarget);
    if (changed) {
        form.reset();
        toast('Password changed. You stay signed in here; other sessions were signed out.');
    }
});

// ---- Authorised apps ----------------------------------------------------------------------

async function loadApps() {
    try {
        const apps = await get('/api/v1/authorizations');
        $('#app-list').replaceChildren(...apps.map(appView));
        $('#no-apps').hidden = apps.length > 0;
    } catch (error) {
        showError($('#app-error'), error);
    }
}

function appView(app) {
    const revoke = el('button', {type: 'button', class: 'danger revoke'}, 'Revoke');
    const item = el('li', {class: 'listed app', dataset: {clientId: app.client_id}},
        el('strong', {class: 'app-name'}, app.client_name || app.client_id),
        el('span', {class: 'badge'}, app.scopes.join(' + ')),
        el('small', {}, 'authorised ', time(app.authorised_at)),
        revoke);
    revoke.addEventListener('click', async () => {
        const name = app.client_name || app.client_id;
        if (!await confirmAction(`Revoke “${name}”? It loses access to your account until you authorise it again.`, 'Revoke access')) {
            return;
        }
        const revoked = await busy(revoke, async () => {
            await call('DELETE', `/api/v1/authorizations/${encodeURIComponent(app.client_id)}`);
            return true;
        }, $('#app-error'));
        if (revoked) {
            item.remove();
            $('#no-apps').hidden = $('#app-list').children.length > 0;
            toast(`“${name}” can no longer use your account.`);
        }
    });
    return item;
}

// ---- Sign out everywhere ------------------------------------------------------------------

$('#sign-out-everywhere').addEventListener('click', async event => {
    const button = event.currentTarget;
    if (!await confirmAction('Sign out everywhere? Every browser (this one too), token and app loses access at once; '
            + 'you sign in again with your password.', 'Sign out everywhere')) {
        return;
    }
    const done = await busy(button, async () => {
        await call('POST', '/api/v1/me/sessions/revoke');
        return true;
    }, $('#sign-out-error'));
    if (done) {
        // This session ended with the rest: the sign-in page is where the person goes next.
        location.assign('/login');
    }
});

load();
