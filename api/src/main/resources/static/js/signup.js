// Sign-up: the account is created through the API, then the browser signs in with the same
// sign-in form as everyone else.

import {post} from './api.js';
import {busy} from './dom.js';

const form = document.querySelector('#signup-form');
const error = document.querySelector('#signup-error');

form.addEventListener('submit', async event => {
    event.preventDefault();
    const username = form.username.value.trim().toLowerCase();
    const password = form.password.value;
    const email = form.email.value.trim();
    const created = await busy(form.querySelector('button'),
        () => post('/api/v1/accounts', email ? {username, password, email} : {username, password}), error);
    if (created) {
        const signIn = document.querySelector('#signin-form');
        signIn.username.value = username;
        signIn.password.value = password;
        signIn.submit();
    }
});
