// The phone layout's drawer: the sidebar slides in over the timeline from a button (the timeline
// comes first on a phone; the composer and the filters fold away behind buttons layout.js wires).
// At desktop width the button is hidden and everything is shown, so this module changes nothing there.

const sidebar = document.querySelector('#home-sidebar');
const open = document.querySelector('#sidebar-toggle');
const close = document.querySelector('#sidebar-close');
const backdrop = document.querySelector('#drawer-backdrop');

export function setUpDrawers() {
    open.addEventListener('click', () => showSidebar(true));
    close.addEventListener('click', () => showSidebar(false));
    backdrop.addEventListener('click', () => showSidebar(false));
    document.addEventListener('keydown', event => {
        if (event.key === 'Escape' && sidebar.classList.contains('open')) {
            showSidebar(false);
        }
    });
}

/** Opens or closes the sidebar drawer (a pick in it closes it: the timeline is what the person wants to see). */
export function showSidebar(shown) {
    if (shown === sidebar.classList.contains('open')) {
        return;
    }
    sidebar.classList.toggle('open', shown);
    backdrop.hidden = !shown;
    open.setAttribute('aria-expanded', String(shown));
    (shown ? close : open).focus({preventScroll: true});
}
