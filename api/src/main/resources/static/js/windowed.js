// A long list that stays smooth with thousands of rows (the home sidebar's feeds, the sources
// table): only the rows in view are in the page, each placed at its offset in a container as tall
// as all of them. Every row has one height (the CSS sets the same), so where a row goes is
// arithmetic, not layout.

// Rows drawn beyond each edge of the view, so a quick scroll shows no gap.
const OVERSCAN = 10;

/**
 * The rows of `container`, drawn as the window (and `scroller`, a scrolled box holding them, if
 * any) scrolls. `rowHeight()` is asked at each draw (a phone's rows are taller); `key(item)` names
 * an item's row and `render(item)` makes it; `placed(element, index)` runs on each row drawn.
 */
export function windowedRows(container, {rowHeight, key, render, placed = () => {}, scroller = null}) {
    let items = [];
    // Key → the element drawn for it: rows that stay in view are kept (focus stays put).
    let drawn = new Map();
    let scheduled = false;

    function draw() {
        const height = rowHeight();
        container.style.height = `${items.length * height}px`;
        const box = container.getBoundingClientRect();
        const frame = scroller?.getBoundingClientRect() ?? {top: 0, bottom: window.innerHeight};
        const top = Math.max(frame.top, 0) - box.top;
        const bottom = Math.min(frame.bottom, window.innerHeight) - box.top;
        const first = Math.max(0, Math.floor(top / height) - OVERSCAN);
        const last = Math.min(items.length, Math.ceil(Math.max(bottom, 0) / height) + OVERSCAN);
        const wanted = new Map();
        for (let i = first; i < last; i++) {
            const item = items[i];
            const name = key(item);
            const element = drawn.get(name) ?? render(item);
            element.style.top = `${i * height}px`;
            placed(element, i);
            wanted.set(name, element);
            if (!element.isConnected) {
                container.append(element);
            }
        }
        for (const [name, element] of drawn) {
            if (!wanted.has(name)) {
                element.remove();
            }
        }
        drawn = wanted;
    }

    function scheduleDraw() {
        if (!scheduled) {
            scheduled = true;
            requestAnimationFrame(() => {
                scheduled = false;
                draw();
            });
        }
    }

    scroller?.addEventListener('scroll', scheduleDraw, {passive: true});
    window.addEventListener('scroll', scheduleDraw, {passive: true});

    return {
        /** Shows these items (or the same again), every row drawn afresh: new order, counts or row height. */
        show(next = items) {
            items = next;
            for (const element of drawn.values()) {
                element.remove();
            }
            drawn = new Map();
            draw();
        },
        /** The rows in the page now, by key. */
        drawn: () => drawn,
    };
}
