// Small DOM helpers shared by every page: elements are built with textContent, never from HTML
// strings, so API data can't inject markup; the one exception is item HTML, which goes through
// sanitize() first.

import DOMPurify from '/webjars/dompurify/dist/purify.es.mjs';

/** An element with attributes (`on*` functions become listeners) and children (strings become text). */
export function el(tag, attributes = {}, ...children) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
        if (value === undefined || value === null || value === false) {
            continue;
        }
        if (name.startsWith('on') && typeof value === 'function') {
            element.addEventListener(name.slice(2), value);
        } else if (name === 'dataset') {
            Object.assign(element.dataset, value);
        } else {
            element.setAttribute(name, value === true ? '' : String(value));
        }
    }
    for (const child of children.flat()) {
        if (child !== undefined && child !== null && child !== false) {
            element.append(child instanceof Node ? child : String(child));
        }
    }
    return element;
}

DOMPurify.addHook('afterSanitizeAttributes', node => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
    if (node.tagName === 'IMG') {
        node.setAttribute('loading', 'lazy');
        node.setAttribute('decoding', 'async');
        node.setAttribute('referrerpolicy', 'no-referrer');
    }
});

/**
 * The video players whose embeds the server keeps (the crawler's Embeds; the page's CSP frame-src
 * names the same hosts, and VideoEmbedBrowserTest checks the three agree): host to embed path.
 */
const PLAYERS = new Map([
    ['www.youtube.com', /^\/embed\/[A-Za-z0-9_-]{1,64}$/],
    ['youtube.com', /^\/embed\/[A-Za-z0-9_-]{1,64}$/],
    ['www.youtube-nocookie.com', /^\/embed\/[A-Za-z0-9_-]{1,64}$/],
    ['youtube-nocookie.com', /^\/embed\/[A-Za-z0-9_-]{1,64}$/],
    ['player.vimeo.com', /^\/video\/[0-9]{1,20}$/],
    ['www.dailymotion.com', /^\/embed\/video\/[A-Za-z0-9]{1,32}$/],
    ['geo.dailymotion.com', /^\/player(?:\/[A-Za-z0-9]{1,32})?\.html$/],
]);

/** Whether a frame's src is a player's embed page: https, no user or port, an exact host and path. */
export function isPlayer(src) {
    let url;
    try {
        url = new URL(src);
    } catch {
        return false;
    }
    const path = PLAYERS.get(url.hostname);
    return url.protocol === 'https:' && !url.username && !url.password && !url.port && path !== undefined
        && path.test(url.pathname);
}

DOMPurify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'iframe' && !isPlayer(node.getAttribute('src') ?? '')) {
        node.parentNode?.removeChild(node);
    }
});

DOMPurify.addHook('afterSanitizeAttributes', node => {
    if (node.tagName === 'IFRAME') {
        // As the server sets them: the player runs in its own origin, never navigates this page.
        node.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-presentation allow-popups');
        node.setAttribute('allow', 'encrypted-media; fullscreen; picture-in-picture');
        node.setAttribute('referrerpolicy', 'strict-origin-when-cross-origin');
        node.setAttribute('loading', 'lazy');
    }
});

/**
 * Item HTML as nodes. The server sanitised it when the item was stored; it is sanitised again
 * here, in case a stored item predates a sanitiser fix, with forms and styles dropped and frames
 * kept only for the allow-listed video players.
 */
export function sanitize(html) {
    return DOMPurify.sanitize(html ?? '', {
        RETURN_DOM_FRAGMENT: true,
        ADD_TAGS: ['iframe'],
        ADD_ATTR: ['allow', 'allowfullscreen', 'sandbox', 'referrerpolicy', 'loading'],
        FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'object', 'embed', 'svg', 'math'],
        FORBID_ATTR: ['style', 'class', 'id', 'srcdoc'],
        ALLOW_DATA_ATTR: false,
    });
}

const relative = new Intl.RelativeTimeFormat(undefined, {numeric: 'auto'});
const absolute = new Intl.DateTimeFormat(undefined, {dateStyle: 'medium', timeStyle: 'short'});

/** A <time> that says how long ago, with the exact time on hover; a date the browser cannot read says so. */
export function time(iso) {
    if (!iso) {
        return null;
    }
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) {
        return el('time', {class: 'unknown-date'}, 'date unknown');
    }
    return el('time', {datetime: iso, title: absolute.format(date)}, ago(date));
}

function ago(date) {
    const seconds = Math.round((date.getTime() - Date.now()) / 1000);
    const steps = [[60, 'second'], [60, 'minute'], [24, 'hour'], [30, 'day'], [12, 'month'], [Infinity, 'year']];
    let value = seconds;
    for (const [size, unit] of steps) {
        if (Math.abs(value) < size) {
            return relative.format(value, unit);
        }
        value = Math.round(value / size);
    }
    return absolute.format(date);
}

let undoNote = null;

/**
 * A short message at the bottom of the screen. With `undo` (a function), it carries an Undo button
 * for a few seconds; a newer undoable message replaces the older one (its action can no longer be
 * undone from here, as in a mail client).
 */
export function toast(message, {undo} = {}) {
    const note = el('div', {class: 'toast', role: 'status'}, message);
    if (undo) {
        undoNote?.remove();
        undoNote = note;
        const button = el('button', {type: 'button', class: 'toast-undo'}, 'Undo');
        button.addEventListener('click', () => {
            note.remove();
            undo();
        });
        note.append(' ', button);
    }
    document.body.append(note);
    setTimeout(() => note.remove(), undo ? 8000 : 4000);
}

/** Shows an error in an element (role=alert), or hides it when `error` is null. */
export function showError(target, error) {
    target.hidden = !error;
    // A field error the message already says (a one-field problem's detail names it) is said once.
    const fields = error?.fieldErrors;
    const said = fields && normalised(error.message).includes(normalised(fields));
    target.textContent = error ? [error.message, said ? null : fields].filter(Boolean).join(' — ') : '';
}

function normalised(text) {
    return String(text ?? '').toLowerCase().replace(/[\s.]+/g, ' ').trim();
}

/** Runs `action` with the button disabled, reporting a failure in `errorTarget` (or a toast). */
export async function busy(button, action, errorTarget) {
    button.disabled = true;
    try {
        if (errorTarget) {
            showError(errorTarget, null);
        }
        return await action();
    } catch (error) {
        if (errorTarget) {
            showError(errorTarget, error);
        } else {
            toast(error.message);
        }
        return undefined;
    } finally {
        button.disabled = false;
    }
}
