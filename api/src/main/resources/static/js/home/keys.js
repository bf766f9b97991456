// Keyboard shortcuts: j/k move the selection (moving onto an item opens it, as the read mode says), m toggles read, s toggles the star, o opens, ? shows the help. Keys
// typed into a field, or pressed with a modifier (browser shortcuts), are left alone.

import {safeUrl} from '../items.js';
import {moveSelection, opened, selected, toggleSelected, toggleStarSelected} from './timeline.js';

const help = document.querySelector('#keys-help');

export function setUpKeys() {
    document.querySelector('#keys-button').addEventListener('click', toggleHelp);
    document.addEventListener('keydown', event => {
        if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || typing(event.target)) {
            return;
        }
        const action = ACTIONS[event.key];
        if (action && (!help.open || event.key === '?')) {
            event.preventDefault();
            action();
        }
    });
}

const ACTIONS = {
    j: () => moveSelection(1),
    k: () => moveSelection(-1),
    m: toggleSelected,
    s: toggleStarSelected,
    o: openSelected,
    '?': toggleHelp,
};

// Checkboxes and buttons take no letters, so shortcuts still work right after using a filter.
const NOT_TYPED = ['checkbox', 'radio', 'button', 'submit', 'reset'];

function typing(target) {
    if (!(target instanceof HTMLElement)) {
        return false;
    }
    if (target instanceof HTMLInputElement) {
        return !NOT_TYPED.includes(target.type);
    }
    return target.isContentEditable || ['TEXTAREA', 'SELECT'].includes(target.tagName);
}

function openSelected() {
    const entry = selected();
    if (!entry) {
        return;
    }
    const {item} = entry;
    const link = item.url ? safeUrl(item.url) : '#';
    // An item without a followable link (a post, a javascript: url) opens its own page.
    window.open(link !== '#' ? link : `/items/${encodeURIComponent(item.id)}`, '_blank', 'noopener');
    opened(entry);
}

function toggleHelp() {
    if (help.open) {
        help.close();
    } else {
        help.showModal();
    }
}
