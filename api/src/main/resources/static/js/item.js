// The item page: the item as a full card, a like toggle, and its comments (read, add, delete my
// own). Everything goes through the public API with the browser's session.

import {ApiError, call, get, page} from './api.js';
import {busy, el, sanitize, showError, time} from './dom.js';
import {itemCard, safeUrl} from './items.js';
import {me} from './layout.js';
import {confirmAction} from './confirm.js';

const COMMENTS_PER_PAGE = 50;

const main = document.querySelector('#item-page');
const itemId = main.dataset.itemId;
const itemPath = `/api/v1/items/${encodeURIComponent(itemId)}`;

const loading = document.querySelector('#item-loading');
const pageError = document.querySelector('#item-error');
const reactions = document.querySelector('#reactions');
const likeToggle = document.querySelector('#like-toggle');
const likeCount = document.querySelector('#like-count');
const commentCount = document.querySelector('#comment-count');
const commentList = document.querySelector('#comment-list');
const noComments = document.querySelector('#no-comments');
const moreComments = document.querySelector('#more-comments');
const commentsError = document.querySelector('#comments-error');
const form = document.querySelector('#comment-form');
const formError = document.querySelector('#comment-error');

/** What the page knows; the counts move with what the reader does here. */
const state = {item: null, card: null, me: null, liked: false, likes: 0, comments: 0, next: null, shown: new Set()};

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

async function load() {
    let item, like, person;
    try {
        [item, like, person] = await Promise.all([get(itemPath), get(`${itemPath}/like`), me]);
    } catch (error) {
        loading.hidden = true;
        if (error instanceof ApiError && error.status === 404) {
            document.title = 'Item not found – Tributary';
            document.querySelector('#not-found').hidden = false;
        } else {
            showError(pageError, error);
        }
        return;
    }
    Object.assign(state, {item, me: person, liked: like.liked, likes: like.likes_count, comments: item.comments_count});
    document.title = `${item.title || 'Item'} – Tributary`;
    state.card = itemCard(item);
    // On this page the like toggle and the thread below stand in for the card's counters.
    state.card.querySelector('.item-actions .likes')?.remove();
    state.card.classList.add('full');
    showContent(item, state.card);
    document.querySelector('#item').replaceChildren(state.card);
    loading.hidden = true;
    reactions.hidden = false;
    renderLikes();
    renderCommentCount();
    markOpened(item, state.card);
    await loadComments(`${itemPath}/comments`, {limit: COMMENTS_PER_PAGE});
}

/**
 * The feed's own full content, where it gave one, in place of the summary: this page is where an
 * item is read, and the summary is only its start. Sanitised again here, as summaries are.
 */
function showContent(item, card) {
    if (!item.content) {
        return;
    }
    const content = el('div', {class: 'item-summary item-content'}, sanitize(item.content),
        item.content_truncated ? el('p', {class: 'item-article-note'}, 'The post goes on at ',
            item.url ? el('a', {href: safeUrl(item.url), target: '_blank', rel: 'noopener noreferrer'}, 'its page') : 'its page', '.') : null);
    const summary = card.querySelector('.item-summary');
    if (summary) {
        summary.replaceWith(content);
    } else {
        (card.querySelector('.item-title') ?? card.firstChild).after(content);
    }
}

/**
 * Opening an item's page is reading it, as opening a message in a mail client is: the reader
 * came here on purpose, and the card still offers "Mark unread" to undo it. Only an item in the
 * reader's own timeline has a read state (one reached from someone's profile has none), so the
 * timeline is asked first (the entry just older than id + 1 of the item's source: the item
 * itself if it is there) rather than trying and getting a 404.
 */
async function markOpened(item, card) {
    if (item.read) {
        return;
    }
    try {
        const entries = await get('/api/v1/timelines/home',
            {source_id: item.source.id, max_id: (BigInt(item.id) + 1n).toString(), limit: 1});
        if (entries[0]?.id !== item.id) {
            // Nothing to mark: the button would only be told "no such item".
            card.querySelector('.mark-read')?.remove();
            return;
        }
        await call('POST', `${itemPath}/read`);
    } catch (notMarked) {
        // Not worth interrupting the reader: the card's button still marks it by hand.
        return;
    }
    item.read = true;
    card.classList.add('read');
    const button = card.querySelector('.mark-read');
    if (button) {
        button.textContent = 'Mark unread';
        button.setAttribute('aria-pressed', 'true');
    }
}

function renderLikes() {
    likeToggle.textContent = state.liked ? '♥ Liked' : '♡ Like';
    likeToggle.setAttribute('aria-pressed', String(state.liked));
    likeToggle.title = state.liked ? 'Unlike' : 'Like';
    likeCount.textContent = plural(state.likes, 'like');
}

likeToggle.addEventListener('click', () => busy(likeToggle, async () => {
    const {data} = await call(state.liked ? 'DELETE' : 'POST', `${itemPath}/like`);
    state.liked = data.liked;
    state.likes = data.likes_count;
    renderLikes();
}));

function renderCommentCount() {
    commentCount.textContent = `(${state.comments})`;
    const link = state.card?.querySelector('.item-actions .comments');
    if (link) {
        link.textContent = plural(state.comments, 'comment');
    }
    noComments.hidden = commentList.children.length > 0;
}

async function loadComments(path, query) {
    try {
        const result = await page(path, query);
        showComments(result.entries);
        state.next = result.next;
        // A short page is the end; a full one may have more after it.
        moreComments.hidden = !state.next || result.entries.length < COMMENTS_PER_PAGE;
    } catch (error) {
        showError(commentsError, error);
    }
    renderCommentCount();
}

moreComments.addEventListener('click', () => busy(moreComments, () => loadComments(state.next), commentsError));

/** Appends comments not shown yet (one I just wrote may come again with a later page). */
function showComments(comments) {
    for (const comment of comments) {
        if (!state.shown.has(comment.id)) {
            state.shown.add(comment.id);
            commentList.append(commentView(comment));
        }
    }
}

function commentView(comment) {
    const author = comment.author?.username
        ? el('a', {class: 'comment-author', href: `/people/${encodeURIComponent(comment.author.username)}`}, comment.author.username)
        : el('span', {class: 'comment-author muted'}, 'A deleted account');
    const mine = state.me && comment.author?.id === state.me.id;
    const item = el('li', {class: 'comment', dataset: {id: comment.id}},
        el('div', {class: 'comment-meta'}, author, time(comment.created_at),
            mine ? el('button', {type: 'button', class: 'link-button comment-delete'}, 'Delete') : null),
        // Plain text by contract: textContent, never HTML.
        el('p', {class: 'comment-text'}, comment.text));
    item.querySelector('.comment-delete')?.addEventListener('click', event => deleteComment(comment, item, event.currentTarget));
    return item;
}

async function deleteComment(comment, item, button) {
    if (!await confirmAction('Delete your comment? This can’t be undone.', 'Delete comment')) {
        return;
    }
    const deleted = await busy(button, async () => {
        await call('DELETE', `/api/v1/comments/${encodeURIComponent(comment.id)}`);
        return true;
    }, commentsError);
    if (deleted) {
        item.remove();
        state.comments = Math.max(0, state.comments - 1);
        renderCommentCount();
    }
}

form.addEventListener('submit', async event => {
    event.preventDefault();
    const text = form.text.value;
    // The API refuses blank comments too; saying so here spares a round trip and names the fix.
    if (!text.trim()) {
        showError(formError, new Error('Write something before posting a comment.'));
        form.text.focus();
        return;
    }
    const created = await busy(form.querySelector('button[type=submit]'),
        async () => (await call('POST', `${itemPath}/comments`, {json: {text}})).data, formError);
    if (created) {
        showComments([created]);
        state.comments += 1;
        renderCommentCount();
        form.reset();
    }
});

load();
