// What every signed-in page does: mark its place in the navigation, name who is signed in, switch
// light and dark (theme.js applied the kept choice before the page was painted), and on a phone
// fold secondary parts of the page (a form, the filters) behind their buttons.

import {get} from './api.js';

const here = location.pathname === '/' ? 'home' : location.pathname.split('/')[1];
document.querySelector(`.site-nav [data-nav="${here}"]`)?.setAttribute('aria-current', 'page');

/** The signed-in person ({id, username, created_at}), fetched once per page. */
export const me = document.querySelector('#me-link') ? get('/api/v1/me') : Promise.resolve(null);

me.then(person => {
    const link = document.querySelector('#me-link');
    if (person && link) {
        link.textContent = person.username;
        link.href = `/people/${encodeURIComponent(person.username)}`;
        link.hidden = false;
    }
}).catch(() => {});

const themeToggle = document.querySelector('#theme-toggle');
const systemDark = window.matchMedia('(prefers-color-scheme: dark)');

function dark() {
    const chosen = document.documentElement.dataset.theme;
    return chosen ? chosen === 'dark' : systemDark.matches;
}

function showTheme() {
    themeToggle?.setAttribute('aria-pressed', String(dark()));
}

themeToggle?.addEventListener('click', () => {
    const next = dark() ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    try {
        localStorage.setItem('tributary.theme', next);
    } catch (unavailable) {
        // Storage off: the choice lasts for this page.
    }
    showTheme();
});
systemDark.addEventListener('change', showTheme);
showTheme();

/**
 * Shows (or folds away) the part of the page a `.phone-toggle` button controls: on a phone a
 * `.phone-collapsible` part is shown only when unfolded; wider screens hide the buttons and show it.
 */
export function unfold(toggle, shown = true) {
    document.getElementById(toggle.getAttribute('aria-controls')).classList.toggle('shown', shown);
    toggle.setAttribute('aria-expanded', String(shown));
}

for (const toggle of document.querySelectorAll('.phone-toggle')) {
    toggle.addEventListener('click', () => unfold(toggle, toggle.getAttribute('aria-expanded') !== 'true'));
}
