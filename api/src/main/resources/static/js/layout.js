// What every signed-in page does: mark its place in the navigation and name who is signed in.

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
