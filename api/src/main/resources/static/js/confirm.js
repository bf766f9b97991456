// A confirmation step for actions that can't be undone (deleting, revoking, rotating), as a modal
// <dialog> in the page rather than window.confirm(): it names the consequence, can be styled,
// and is plain DOM that keyboard users and tests reach like any other.

import {el} from './dom.js';

let counter = 0;

/**
 * Asks `question`; resolves true when the person confirms with `confirmLabel`, false when they
 * cancel (the Cancel button or Escape).
 */
export function confirmAction(question, confirmLabel = 'Confirm') {
    return new Promise(resolve => {
        const labelId = `confirm-question-${++counter}`;
        const yes = el('button', {type: 'button', class: 'danger confirm-yes'}, confirmLabel);
        const no = el('button', {type: 'button', class: 'confirm-no'}, 'Cancel');
        const dialog = el('dialog', {class: 'confirm', 'aria-labelledby': labelId},
            el('p', {id: labelId}, question),
            el('div', {class: 'confirm-actions'}, no, yes));
        const answer = confirmed => {
            dialog.close();
            dialog.remove();
            resolve(confirmed);
        };
        yes.addEventListener('click', () => answer(true));
        no.addEventListener('click', () => answer(false));
        // Escape cancels; the dialog is removed by answer() rather than left closed in the page.
        dialog.addEventListener('cancel', event => {
            event.preventDefault();
            answer(false);
        });
        document.body.append(dialog);
        dialog.showModal();
        // The safe choice has the focus, so a stray Enter doesn't delete anything.
        no.focus();
    });
}
