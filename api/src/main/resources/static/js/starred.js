// The Starred page: the reader's starred items, newest starred first, as far back as they go. An
// item unstarred here leaves the list at once.

import './layout.js';
import {showError} from './dom.js';
import {pagedItems} from './items.js';

const error = document.querySelector('#starred-error');

const cardOptions = {
    onStarChange: (item, starred, card) => {
        if (!starred) {
            card?.remove();
        }
    },
};

pagedItems(document.querySelector('#starred-items'), '/api/v1/timelines/starred', {limit: 20}, cardOptions)
    .catch(failure => showError(error, failure));
