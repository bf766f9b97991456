// The Rules page: the reader's filter rules with how many items each acted on; create one, edit
// one in the same form, delete one. All through /api/v1/rules.

import './layout.js';
import {call, get} from './api.js';
import {busy, el, showError, toast} from './dom.js';
import {confirmAction} from './confirm.js';

const $ = selector => document.querySelector(selector);
const form = $('#rule-form');
const formError = $('#rule-form-error');

const ACTIONS = {drop: 'Drop', keep_only: 'Keep only', mark_read: 'Mark read', star: 'Star'};
const FIELDS = {any: 'any text', title: 'title', summary: 'summary', url: 'link', author: 'author', tags: 'tags'};

/** Scope option values: "source:<id>" or "folder:<id>"; their names, for the list. */
const scopeNames = new Map();
let editing = null;

async function load() {
    try {
        const [subscriptions, folders] = await Promise.all([get('/api/v1/subscriptions'), get('/api/v1/folders')]);
        const scope = $('#rule-scope');
        for (const folder of folders) {
            addScope(scope, `folder:${folder.id}`, `Folder: ${folder.name}`);
        }
        for (const subscription of subscriptions) {
            const source = subscription.source;
            addScope(scope, `source:${source.id}`, subscription.title || source.title || source.url || source.id);
        }
        await loadRules();
    } catch (error) {
        showError($('#rules-error'), error);
    }
}

function addScope(select, value, name) {
    scopeNames.set(value, name);
    select.append(el('option', {value}, name));
}

async function loadRules() {
    const rules = await get('/api/v1/rules');
    $('#rule-list').replaceChildren(...rules.map(ruleView));
    $('#no-rules').hidden = rules.length > 0;
}

function scopeOf(rule) {
    return rule.source_id ? `source:${rule.source_id}` : rule.folder_id ? `folder:${rule.folder_id}` : '';
}

function ruleView(rule) {
    const scope = scopeOf(rule);
    const edit = el('button', {type: 'button', class: 'edit'}, 'Edit');
    const remove = el('button', {type: 'button', class: 'danger delete'}, 'Delete');
    const item = el('li', {class: 'listed rule', dataset: {id: rule.id}},
        el('span', {class: 'badge rule-action'}, ACTIONS[rule.action] ?? rule.action),
        el('span', {}, `${FIELDS[rule.field] ?? rule.field} ${rule.match === 'regex' ? 'matches' : 'contains'} `,
            el('code', {class: 'rule-pattern'}, rule.pattern)),
        el('small', {class: 'rule-scope'}, scope ? `in ${scopeNames.get(scope) ?? 'a source you no longer follow'}` : 'in all sources'),
        el('small', {class: 'rule-matched'}, `${rule.matched} matched`),
        edit, remove);
    edit.addEventListener('click', () => startEditing(rule));
    remove.addEventListener('click', async () => {
        if (!await confirmAction(`Delete the rule “${rule.pattern}”? Items it already acted on stay as they are.`, 'Delete rule')) {
            return;
        }
        const deleted = await busy(remove, async () => {
            await call('DELETE', `/api/v1/rules/${encodeURIComponent(rule.id)}`);
            return true;
        }, $('#rules-error'));
        if (deleted) {
            item.remove();
            $('#no-rules').hidden = $('#rule-list').children.length > 0;
            if (editing?.id === rule.id) {
                stopEditing();
            }
            toast('Rule deleted.');
        }
    });
    return item;
}

function startEditing(rule) {
    editing = rule;
    $('#rule-action').value = rule.action;
    $('#rule-field').value = rule.field;
    $('#rule-match').value = rule.match;
    $('#rule-pattern').value = rule.pattern;
    $('#rule-scope').value = scopeNames.has(scopeOf(rule)) ? scopeOf(rule) : '';
    $('#rule-form-heading').textContent = 'Edit rule';
    $('#rule-save').textContent = 'Save rule';
    $('#rule-cancel').hidden = false;
    showError(formError, null);
    $('#rule-pattern').focus();
}

function stopEditing() {
    editing = null;
    form.reset();
    $('#rule-form-heading').textContent = 'New rule';
    $('#rule-save').textContent = 'Create rule';
    $('#rule-cancel').hidden = true;
}

$('#rule-cancel').addEventListener('click', stopEditing);

form.addEventListener('submit', async event => {
    event.preventDefault();
    const scope = $('#rule-scope').value;
    const json = {
        action: $('#rule-action').value,
        field: $('#rule-field').value,
        match: $('#rule-match').value,
        pattern: $('#rule-pattern').value,
        source_id: scope.startsWith('source:') ? scope.slice('source:'.length) : (editing ? '' : null),
        folder_id: scope.startsWith('folder:') ? scope.slice('folder:'.length) : (editing ? '' : null),
    };
    const saved = await busy($('#rule-save'), async () => editing
        ? (await call('PATCH', `/api/v1/rules/${encodeURIComponent(editing.id)}`, {json})).data
        : (await call('POST', '/api/v1/rules', {json})).data, formError);
    if (saved) {
        toast(editing ? 'Rule saved.' : 'Rule created.');
        stopEditing();
        await loadRules().catch(error => showError($('#rules-error'), error));
    }
});

load();
