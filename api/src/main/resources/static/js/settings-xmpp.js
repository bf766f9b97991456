// The settings page's XMPP section: link an address, confirm the code sent to it, choose what it
// receives, unlink; all through /api/v1/me/xmpp. The section stays hidden, and nothing is asked,
// when the server has no XMPP push (the page says so in data-push).

import {ApiError, call, get} from './api.js';
import {busy, showError, toast} from './dom.js';

const $ = selector => document.querySelector(selector);
const section = $('#xmpp-section');
const error = $('#xmpp-error');

async function load() {
    if (section.dataset.push !== 'true') {
        return; // XMPP push is not set up on this server: nothing to ask
    }
    let link = null;
    try {
        link = await get('/api/v1/me/xmpp');
    } catch (failure) {
        if (!(failure instanceof ApiError) || failure.status !== 404) {
            return;
        }
        if ((failure.problem.detail ?? '').includes('server')) {
            return; // XMPP push is not set up here
        }
    }
    section.hidden = false;
    show(link);
}

function show(link) {
    error.hidden = true;
    $('#xmpp-linked').hidden = !link;
    $('#xmpp-unlink').hidden = !link;
    $('#xmpp-confirm-form').hidden = !link || link.verified;
    $('#xmpp-delivery-form').hidden = !link || !link.verified;
    if (link) {
        $('#xmpp-address').textContent = link.address;
        $('#xmpp-status').textContent = link.verified ? 'confirmed' : 'waiting for the code';
        $('#xmpp-deliver').value = link.deliver;
        if (link.verified) {
            showFolders(link);
        }
    }
}

async function showFolders(link) {
    const select = $('#xmpp-folder');
    const folders = await get('/api/v1/folders').catch(() => []);
    select.replaceChildren(...folders.map(folder => new Option(folder.name, folder.id, false, folder.id === link.folder_id)));
    toggleFolder();
}

function toggleFolder() {
    const folder = $('#xmpp-deliver').value === 'folder';
    $('#xmpp-folder').hidden = !folder;
    $('#xmpp-folder-label').hidden = !folder;
}

$('#xmpp-deliver').addEventListener('change', toggleFolder);

$('#xmpp-link-form').addEventListener('submit', async event => {
    event.preventDefault();
    const button = event.submitter ?? event.currentTarget.querySelector('button');
    const address = $('#xmpp-new-address').value.trim();
    const linked = await busy(button, async () => (await call('POST', '/api/v1/me/xmpp', {json: {address}})).data, error);
    if (linked) {
        $('#xmpp-new-address').value = '';
        show(linked);
        toast(`A code is on its way to ${linked.address}.`);
    }
});

$('#xmpp-confirm-form').addEventListener('submit', async event => {
    event.preventDefault();
    const button = event.submitter ?? event.currentTarget.querySelector('button');
    const code = $('#xmpp-code').value.trim();
    const confirmed = await busy(button, async () => (await call('POST', '/api/v1/me/xmpp/confirm', {json: {code}})).data, error);
    if (confirmed) {
        $('#xmpp-code').value = '';
        show(confirmed);
        toast('Address confirmed: new entries will reach it.');
    }
});

$('#xmpp-delivery-form').addEventListener('submit', async event => {
    event.preventDefault();
    const button = event.submitter ?? event.currentTarget.querySelector('button');
    const deliver = $('#xmpp-deliver').value;
    const json = deliver === 'folder' ? {deliver, folder_id: $('#xmpp-folder').value} : {deliver};
    const saved = await busy(button, async () => (await call('PUT', '/api/v1/me/xmpp/delivery', {json})).data, error);
    if (saved) {
        show(saved);
        toast('Saved.');
    }
});

$('#xmpp-unlink').addEventListener('click', async event => {
    const done = await busy(event.currentTarget, async () => (await call('DELETE', '/api/v1/me/xmpp')).response.ok, error);
    if (done) {
        show(null);
        toast('Nothing more will be sent to that address.');
    }
});

load().catch(failure => showError(error, failure));
