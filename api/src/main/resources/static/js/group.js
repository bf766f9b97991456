// A group's page: its members (paged), join (open groups) or leave, follow or unfollow, post
// (members only), the owner's open/close switch, and the group's feed as far back as it goes.

import {me} from './layout.js';
import {call, del, get, page, post} from './api.js';
import {busy, el, showError, toast} from './dom.js';
import {pagedItems} from './items.js';
import {confirmStep, followToggle, myGroups, notFoundOr, showMessage} from './follow.js';

const id = document.querySelector('#group-page').dataset.groupId;
const base = `/api/v1/groups/${encodeURIComponent(id)}`;
const error = document.querySelector('#group-error');
const actions = document.querySelector('#group-actions');
const postForm = document.querySelector('#group-post-form');
const postError = document.querySelector('#group-post-error');
const memberList = document.querySelector('#group-members');
const moreMembers = document.querySelector('#members-more');

let group;
let self;
let follow;
let nextMembers = null;
/** Whether the reader may see the group's members and posts: an open group's are anyone's, a closed one's its members'. */
let readable = false;

async function load() {
    try {
        group = await get(base);
    } catch (failure) {
        showMessage(document.querySelector('#group-missing'), notFoundOr(failure, `Group ${id}`));
        return;
    }
    self = await me;
    document.title = `${group.name} – Tributary`;
    document.querySelector('#group-name').textContent = group.name;
    document.querySelector('#group-found').hidden = false;
    follow = followToggle({
        find: list => list.find(subscription => subscription.source.id === group.source_id),
        body: () => ({group_id: group.id}),
        errorTarget: error,
    });
    follow.ready.catch(failure => showError(error, failure));
    await membership();
    await Promise.all([members(), feed()]);
}

/** Whether the reader belongs to the group decides the join/leave button and the post form. */
async function membership() {
    let member;
    try {
        member = (await myGroups()).some(mine => mine.id === group.id);
    } catch (failure) {
        showError(error, failure);
        return;
    }
    const owner = group.owner_id === self.id;
    document.querySelector('#group-role').textContent = owner ? 'You run this group.'
        : member ? 'You are a member.' : 'You are not a member.';
    postForm.hidden = !member;
    document.querySelector('#group-not-member').hidden = member;
    readable = member || group.open;
    // A closed group is its members' alone: the API answers anyone else 404, so nothing to follow or show.
    actions.replaceChildren(...(readable ? [follow.element] : []));
    document.querySelector('#group-closed').hidden = readable;
    // Only an open group's feed is exported (a closed one's is the 404 of none), so only then is it offered.
    document.querySelector('#group-feed-links').hidden = !group.open;
    if (owner) {
        actions.prepend(openSwitch());
    }
    if (!member && group.open) {
        const join = el('button', {type: 'button', class: 'primary', id: 'group-join'}, 'Join group');
        join.addEventListener('click', () => busy(join, async () => {
            await post(`${base}/members`, {username: self.username});
            toast(`You joined ${group.name}.`);
            await changed();
        }, error));
        actions.prepend(join);
    } else if (!owner) {
        // The owner can't leave (a group always has someone to run it), so only others get the button.
        const leave = el('button', {type: 'button', class: 'danger', id: 'group-leave'}, 'Leave group');
        const wrap = el('span', {class: 'leave'}, leave);
        leave.addEventListener('click', () => confirmStep(wrap, leave, `Leave ${group.name}?`, 'Yes, leave', async () => {
            await del(`${base}/members/${encodeURIComponent(self.username)}`);
            toast(`You left ${group.name}.`);
            await changed();
        }, error));
        actions.prepend(wrap);
    }
}

/** The owner's switch between open (anyone joins) and closed (by invitation only). */
function openSwitch() {
    const toggle = el('button', {type: 'button', id: 'group-open-toggle'},
        group.open ? 'Close to newcomers' : 'Open to anyone');
    toggle.addEventListener('click', () => busy(toggle, async () => {
        group = await call('PATCH', base, {json: {open: !group.open}}).then(answer => answer.data);
        toast(group.open ? `Anyone may now join ${group.name}.` : `${group.name} is now by invitation only.`);
        await membership();
    }, error));
    return toggle;
}

/** After joining or leaving: membership, members, posts (a closed group's are members') and the follow state change. */
async function changed() {
    await membership();
    await Promise.all([members(), feed(), follow.sync()]);
}

async function members(next) {
    if (!readable) {
        memberList.replaceChildren();
        moreMembers.hidden = true;
        return;
    }
    try {
        const result = next ? await page(next) : await page(`${base}/members`, {limit: 20});
        const rows = result.entries.map(member => el('li', {class: 'member', dataset: {username: member.username}},
            el('a', {href: `/people/${encodeURIComponent(member.username)}`}, member.username),
            member.user_id === group.owner_id ? el('span', {class: 'badge'}, 'owner') : null));
        if (next) {
            memberList.append(...rows);
        } else {
            memberList.replaceChildren(...rows);
        }
        nextMembers = result.next;
        moreMembers.hidden = !nextMembers || result.entries.length === 0;
    } catch (failure) {
        showError(error, failure);
    }
}

moreMembers.addEventListener('click', () => busy(moreMembers, () => members(nextMembers), error));

async function feed() {
    if (!readable) {
        document.querySelector('#group-items').replaceChildren();
        return;
    }
    try {
        await pagedItems(document.querySelector('#group-items'), `${base}/feed`);
    } catch (failure) {
        showError(error, failure);
    }
}

postForm.addEventListener('submit', async event => {
    event.preventDefault();
    const text = document.querySelector('#group-post-text').value.trim();
    const url = document.querySelector('#group-post-url').value.trim();
    if (!text) {
        showMessage(postError, 'Write something to post.');
        return;
    }
    const posted = await busy(postForm.querySelector('button'),
        () => call('POST', `${base}/posts`, {json: url ? {text, url} : {text}}), postError);
    if (posted) {
        postForm.reset();
        toast('Posted.');
        await feed();
    } else if (!postError.hidden) {
        // A refusal may mean the reader was removed meanwhile: show the form only if still a member.
        const message = postError.textContent;
        await membership();
        showMessage(postError, message);
    }
});

load().catch(failure => showError(error, failure));
