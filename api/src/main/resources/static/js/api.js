// The front end's only way to the server: the public API, with the browser's session cookie and
// the page's CSRF token instead of a bearer token.

const csrfToken = document.querySelector('meta[name="csrf-token"]')?.content;
const csrfHeader = document.querySelector('meta[name="csrf-header"]')?.content ?? 'X-CSRF-TOKEN';

/** A refused API call, carrying the RFC 9457 problem the server sent. */
export class ApiError extends Error {
    constructor(status, problem) {
        super(readable(problem) || `The server answered ${status}.`);
        this.status = status;
        this.problem = problem ?? {};
    }

    /**
     * Field errors as one readable line, when the server listed them and the message does not say
     * them already (an invalid request's message is made of them).
     */
    get fieldErrors() {
        if (isInvalid(this.problem)) {
            return '';
        }
        return (this.problem.errors ?? []).map(e => `${e.field.replaceAll('_', ' ')} ${e.message}`).join('; ');
    }
}

// What a field is called in a sentence for a person.
const FIELD_NAMES = {url: 'the address', body: 'the request', query: 'the address', up_to_id: 'the item'};

function isInvalid(problem) {
    return String(problem?.type ?? '').endsWith(':invalid') && Array.isArray(problem.errors) && problem.errors.length > 0;
}

/**
 * The problem in the front end's voice: whole sentences, a capital first and a full stop last.
 * An invalid request says what is wrong with each field ("The pattern is not a valid regular
 * expression: …") rather than "Invalid request: pattern …" and the field list again.
 */
function readable(problem) {
    if (isInvalid(problem)) {
        return problem.errors.map(error => sentence(`${FIELD_NAMES[error.field] ?? `the ${String(error.field).replaceAll('_', ' ')}`} ${error.message}`))
            .join(' ');
    }
    const text = problem?.detail || problem?.title;
    return text ? sentence(text) : '';
}

function sentence(text) {
    const trimmed = String(text).trim();
    if (!trimmed) {
        return trimmed;
    }
    const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
    return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * Calls the API. `json` is sent as the body; `body` is sent as is with `contentType`.
 * Resolves to {data, response}; a signed-out session goes back to the sign-in page.
 */
export async function call(method, path, {json, body, contentType, query, headers = {}} = {}) {
    const url = withQuery(path, query);
    const init = {method, credentials: 'same-origin', headers: {Accept: 'application/json', ...headers}};
    if (method !== 'GET' && method !== 'HEAD' && csrfToken) {
        init.headers[csrfHeader] = csrfToken;
    }
    if (json !== undefined) {
        init.headers['Content-Type'] = 'application/json';
        init.body = JSON.stringify(json);
    } else if (body !== undefined) {
        init.headers['Content-Type'] = contentType;
        init.body = body;
    }
    let response;
    try {
        response = await fetch(url, init);
    } catch (offline) {
        throw new ApiError(0, {detail: 'Tributary could not be reached. Check your connection and try again.'});
    }
    if (response.status === 401 && !headers.Authorization) {
        location.assign('/login');
        throw new ApiError(401, {detail: 'Your session has ended; sign in again.'});
    }
    const data = await readBody(response);
    if (!response.ok) {
        throw new ApiError(response.status, typeof data === 'object' ? data : null);
    }
    return {data, response};
}

export const get = async (path, query) => (await call('GET', path, {query})).data;
export const post = async (path, json) => (await call('POST', path, {json})).data;
export const del = async path => (await call('DELETE', path)).data;

/** A page of a list: its entries and the `next` link (null at the end). */
export async function page(path, query) {
    const {data, response} = await call('GET', path, {query});
    return {entries: data, next: link(response.headers.get('Link'), 'next')};
}

/** The URL of `rel` in an RFC 8288 Link header, as a same-origin path. */
export function link(header, rel) {
    if (!header) {
        return null;
    }
    for (const part of header.split(',')) {
        const match = part.match(/<([^>]*)>\s*;\s*rel="?([^";]+)"?/);
        if (match && match[2].split(/\s+/).includes(rel)) {
            const url = new URL(match[1], location.origin);
            return url.origin === location.origin ? url.pathname + url.search : null;
        }
    }
    return null;
}

function withQuery(path, query) {
    if (!query) {
        return path;
    }
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
        if (value !== undefined && value !== null && value !== '' && value !== false) {
            params.set(key, Array.isArray(value) ? value.join(',') : String(value));
        }
    }
    const search = params.toString();
    return search ? `${path}${path.includes('?') ? '&' : '?'}${search}` : path;
}

async function readBody(response) {
    if (response.status === 204) {
        return null;
    }
    const type = response.headers.get('Content-Type') ?? '';
    if (type.includes('json')) {
        try {
            return await response.json();
        } catch (malformed) {
            return null;
        }
    }
    return await response.text();
}
