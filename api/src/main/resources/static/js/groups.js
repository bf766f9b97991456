// The groups page: create a group, list the groups one belongs to and the invitations to answer,
// open a group by its number.

import './layout.js';
import {del, get, post} from './api.js';
import {busy, el, showError} from './dom.js';
import {myGroups, notFoundOr, showMessage} from './follow.js';

const list = document.querySelector('#my-groups');
const count = document.querySelector('#group-count');

async function refresh() {
    try {
        const groups = await myGroups();
        count.textContent = `(${groups.length})`;
        list.replaceChildren(...(groups.length ? groups.map(row)
            : [el('li', {class: 'muted empty'}, 'You don’t belong to any group yet.')]));
    } catch (error) {
        showError(document.querySelector('#groups-error'), error);
    }
}

function row(group) {
    return el('li', {class: 'group', dataset: {id: group.id}},
        el('a', {class: 'group-link', href: groupHref(group.id)}, group.name),
        ' ', el('span', {class: 'muted'}, `#${group.id}`));
}

const invitationBox = document.querySelector('#invitations');
const invitationList = document.querySelector('#my-invitations');
const invitationsError = document.querySelector('#invitations-error');

async function invitations() {
    try {
        const pending = await get('/api/v1/invitations');
        invitationBox.hidden = pending.length === 0;
        document.querySelector('#invitation-count').textContent = `(${pending.length})`;
        invitationList.replaceChildren(...pending.map(invitationRow));
    } catch (error) {
        invitationBox.hidden = false;
        showError(invitationsError, error);
    }
}

function invitationRow(invitation) {
    const path = `/api/v1/invitations/${encodeURIComponent(invitation.id)}`;
    const answer = (label, className, action) => {
        const button = el('button', {type: 'button', class: className}, label);
        button.addEventListener('click', async () => {
            // A declined answer is null (204), a refused one undefined: only the latter leaves the row.
            if (await busy(button, action, invitationsError) !== undefined) {
                await Promise.all([invitations(), refresh()]);
            }
        });
        return button;
    };
    return el('li', {class: 'invitation', dataset: {id: invitation.id}},
        el('a', {class: 'group-link', href: groupHref(invitation.group_id)}, invitation.group_name),
        ' ', el('span', {class: 'muted'}, `from ${invitation.invited_by}`), ' ',
        answer('Accept', 'primary accept-invitation', () => post(`${path}/accept`, {})), ' ',
        answer('Decline', 'decline-invitation', () => del(path)), ' ',
        answer('Decline and block', 'block-invitation', () => del(`${path}?block=true`)));
}

const groupHref = id => `/groups/${encodeURIComponent(id)}`;

const form = document.querySelector('#group-form');
form.addEventListener('submit', async event => {
    event.preventDefault();
    const error = document.querySelector('#group-error');
    const created = document.querySelector('#group-created');
    created.hidden = true;
    const name = document.querySelector('#group-name').value.trim();
    if (!name) {
        showMessage(error, 'Give the group a name.');
        return;
    }
    const group = await busy(form.querySelector('button'), () => post('/api/v1/groups', {name, open: document.querySelector('#group-open').checked}), error);
    if (group) {
        form.reset();
        created.replaceChildren('Created ', el('a', {class: 'group-link', href: groupHref(group.id)}, group.name), '.');
        created.hidden = false;
        await refresh();
    }
});

const open = document.querySelector('#open-group-form');
open.addEventListener('submit', async event => {
    event.preventDefault();
    const error = document.querySelector('#open-group-error');
    const id = document.querySelector('#open-group-id').value.trim().replace(/^#/, '');
    if (!/^[1-9][0-9]{0,18}$/.test(id)) {
        showMessage(error, 'A group number is made of digits only, like 123456789.');
        return;
    }
    // Asks first, so a wrong number gets a message here rather than a page that finds nothing.
    const group = await busy(open.querySelector('button'), async () => {
        try {
            return await get(`/api/v1/groups/${id}`);
        } catch (failure) {
            throw new Error(notFoundOr(failure, `Group ${id}`));
        }
    }, error);
    if (group) {
        location.assign(groupHref(group.id));
    }
});

refresh();
invitations();
