// The home timeline's filters, kept in the page's query string (media, tag, source_id, folder_id,
// unread) so that reload, bookmarks and the back button keep them. A source and a folder exclude
// each other: picking one clears the other.

export const MEDIA_TYPES = ['text', 'link', 'image', 'video', 'audio'];
const ID = /^[1-9][0-9]{0,18}$/;

/** The filters a query string names; values the API would refuse are dropped rather than sent. */
export function fromSearch(search) {
    const params = new URLSearchParams(search);
    const media = (params.get('media') ?? '').split(',').map(type => type.trim().toLowerCase())
        .filter((type, index, all) => MEDIA_TYPES.includes(type) && all.indexOf(type) === index);
    const tag = (params.get('tag') ?? '').trim().slice(0, 100);
    const sourceId = params.get('source_id') ?? '';
    const folderId = params.get('folder_id') ?? '';
    return {
        media,
        tag,
        sourceId: ID.test(sourceId) ? sourceId : '',
        folderId: ID.test(folderId) && !ID.test(sourceId) ? folderId : '',
        unread: params.get('unread') === 'true',
    };
}

/** The query string for `filters` ('' when none is set), in a fixed order. */
export function toSearch(filters) {
    const params = new URLSearchParams();
    if (filters.media.length) {
        params.set('media', MEDIA_TYPES.filter(type => filters.media.includes(type)).join(','));
    }
    if (filters.tag) {
        params.set('tag', filters.tag);
    }
    if (filters.sourceId) {
        params.set('source_id', filters.sourceId);
    }
    if (filters.folderId) {
        params.set('folder_id', filters.folderId);
    }
    if (filters.unread) {
        params.set('unread', 'true');
    }
    const search = params.toString();
    return search ? `?${search}` : '';
}

/** The timeline API's query parameters for `filters`. */
export function toQuery(filters) {
    return {
        media: filters.media.length ? filters.media : undefined,
        tag: filters.tag || undefined,
        source_id: filters.sourceId || undefined,
        folder_id: filters.folderId || undefined,
        unread: filters.unread || undefined,
    };
}

export function anySet(filters) {
    return filters.media.length > 0 || Boolean(filters.tag) || Boolean(filters.sourceId) || Boolean(filters.folderId)
        || filters.unread;
}

/** Whether the API's "mark all up to" can honour the filters: it knows a source or a folder, not media or tags. */
export function markerCovers(filters) {
    return filters.media.length === 0 && !filters.tag;
}

/**
 * Whether a live item belongs in the timeline as filtered (the server's rules: tags ignore case);
 * `inFolder(folderId, sourceId)` says whether a source is filed in a folder.
 */
export function matches(item, filters, inFolder = () => false) {
    if (filters.media.length && !filters.media.includes(item.media_type)) {
        return false;
    }
    if (filters.tag && !(item.tags ?? []).some(tag => tag.toLowerCase() === filters.tag.toLowerCase())) {
        return false;
    }
    if (filters.sourceId && item.source?.id !== filters.sourceId) {
        return false;
    }
    if (filters.folderId && !inFolder(filters.folderId, item.source?.id)) {
        return false;
    }
    return !(filters.unread && item.read);
}

/** Compares two decimal id strings (64-bit, beyond a JavaScript number's precision). */
export function compareIds(a, b) {
    return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}
