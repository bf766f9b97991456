// The composer: posts a status through the API. The post also comes back on the live stream;
// the timeline shows whichever arrives first, once.

import {post} from '../api.js';
import {busy, toast} from '../dom.js';

const form = document.querySelector('#composer');
const error = document.querySelector('#composer-error');

/** `onPosted(item)` adds the new item to the timeline; it answers whether it is shown. */
export function setUpComposer(onPosted) {
    form.addEventListener('submit', async event => {
        event.preventDefault();
        // Validation is the API's: its messages are shown as they are, for every client alike.
        const item = await busy(form.querySelector('button[type=submit]'), () => post('/api/v1/posts', request()), error);
        if (!item) {
            return;
        }
        form.reset();
        if (!onPosted(item)) {
            toast('Posted. Your filters hide it here.');
        }
    });
}

function request() {
    const body = {text: form.text.value};
    const url = form.url.value.trim();
    if (url) {
        body.url = url;
    }
    const tags = form.tags.value.split(',').map(tag => tag.trim()).filter(Boolean);
    if (tags.length) {
        body.tags = tags;
    }
    return body;
}
