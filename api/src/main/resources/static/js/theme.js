// Light or dark: the system's choice (prefers-color-scheme) unless the person picked one with the
// header's toggle, kept in this browser. A classic script loaded in <head>, before the page is
// painted, so a dark page never flashes light. The toggle itself is wired by layout.js.
(function () {
    try {
        const chosen = localStorage.getItem('tributary.theme');
        if (chosen === 'dark' || chosen === 'light') {
            document.documentElement.dataset.theme = chosen;
        }
    } catch (unavailable) {
        // Storage off: the system's choice stands.
    }
}());
