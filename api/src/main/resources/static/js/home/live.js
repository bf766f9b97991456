// The live stream (Server-Sent Events, authenticated by the session cookie). EventSource
// reconnects by itself and resends Last-Event-ID, so the server replays what was missed; this
// module only says when the stream is down.

const status = document.querySelector('#stream-status');

/** Opens the stream; `handlers` get the parsed `item`, `delete` and `unread` events. */
export function openStream(handlers) {
    if (!('EventSource' in window)) {
        say('Live updates aren’t available in this browser; reload to see new items.');
        return null;
    }
    const source = new EventSource('/api/v1/streaming/home');
    source.addEventListener('open', () => say(null));
    source.addEventListener('error', () => say(source.readyState === EventSource.CLOSED
        ? 'Live updates stopped. Reload the page to see new items.'
        : 'Live updates paused, reconnecting…'));
    source.addEventListener('item', event => parsed(event, handlers.item));
    source.addEventListener('delete', event => handlers.delete(event.data.trim()));
    source.addEventListener('unread', event => parsed(event, handlers.unread));
    return source;
}

function parsed(event, handler) {
    let data;
    try {
        data = JSON.parse(event.data);
    } catch (malformed) {
        return;
    }
    handler(data);
}

function say(message) {
    status.hidden = !message;
    status.textContent = message ?? '';
}
