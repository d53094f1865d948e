// Unit tests of the extension's pure helpers (no VS Code needed).

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import {
  CONVERT_TITLES,
  LANGUAGE_IDS,
  SETTING_KEYS,
  activationEvents,
  camelToKebab,
  documentSelector,
  expandPath,
  nothingToConvertMessage,
  pickAction,
  readSettings,
  resolveServerCommand,
  toServerSettings,
} from '../src/helpers';

describe('settings key conversion', () => {
  it('renames camelCase settings to the server\'s kebab-case keys', () => {
    assert.deepEqual(
      toServerSettings({
        select: ['IRI1'],
        ignore: ['IRI401'],
        extendSelect: ['IRI9'],
        extendIgnore: ['IRI8'],
        severity: { IRI401: 'warning' },
        perFileIgnores: { 'docs/**': ['IRI3'] },
        include: ['**/*.md'],
        exclude: ['vendor/**'],
        extendExclude: ['build/**'],
        extensions: { '.mdx': 'markdown' },
        protectedDomains: ['example.com'],
        allowedScripts: ['Cyrillic'],
        maxFileSize: 1000,
        inlayHints: false,
        debounce: 0,
      }),
      {
        select: ['IRI1'],
        ignore: ['IRI401'],
        'extend-select': ['IRI9'],
        'extend-ignore': ['IRI8'],
        severity: { IRI401: 'warning' },
        'per-file-ignores': { 'docs/**': ['IRI3'] },
        include: ['**/*.md'],
        exclude: ['vendor/**'],
        'extend-exclude': ['build/**'],
        extensions: { '.mdx': 'markdown' },
        'protected-domains': ['example.com'],
        'allowed-scripts': ['Cyrillic'],
        'max-file-size': 1000,
        'inlay-hints': false,
        debounce: 0,
      },
    );
  });

  it('leaves out unset (null/undefined) values, keeps falsy ones', () => {
    assert.deepEqual(
      toServerSettings({ select: null, ignore: undefined, extendSelect: [], debounce: 0, inlayHints: null }),
      { 'extend-select': [], debounce: 0 },
    );
  });

  it('drops the extension\'s own keys, unknown keys and functions', () => {
    assert.deepEqual(
      toServerSettings({
        server: { command: ['irilint', 'server'], interpreter: null },
        trace: { server: 'off' },
        bogus: 1,
        get: () => 1,
        has: () => true,
        select: ['IRI2'],
      }),
      { select: ['IRI2'] },
    );
  });

  it('accepts keys already in kebab-case', () => {
    assert.deepEqual(toServerSettings({ 'extend-select': ['IRI1'], 'max-file-size': 5 }), {
      'extend-select': ['IRI1'],
      'max-file-size': 5,
    });
  });

  it('answers non-objects with no settings', () => {
    assert.deepEqual(toServerSettings(null), {});
    assert.deepEqual(toServerSettings(undefined), {});
    assert.deepEqual(toServerSettings('irilint'), {});
    assert.deepEqual(toServerSettings([1, 2]), {});
  });

  it('copies values (no shared proxies)', () => {
    const severity = { IRI1: 'hint' };
    const out = toServerSettings({ severity });
    assert.notEqual(out.severity, severity);
    assert.deepEqual(out.severity, severity);
  });

  it('maps every setting with camelToKebab', () => {
    for (const [camel, kebab] of Object.entries(SETTING_KEYS)) {
      assert.equal(camelToKebab(camel), kebab);
    }
  });

  it('reads settings key by key for initializationOptions', () => {
    const values: Record<string, unknown> = { extendSelect: ['IRI5'], inlayHints: false, server: { command: 'x' } };
    const asked: string[] = [];
    const out = readSettings((key) => {
      asked.push(key);
      return values[key];
    });
    assert.deepEqual(out, { 'extend-select': ['IRI5'], 'inlay-hints': false });
    assert.deepEqual(asked.sort(), Object.keys(SETTING_KEYS).sort());
  });
});

describe('server command resolution', () => {
  const ctx = { workspaceFolder: path.join(path.sep, 'ws'), home: path.join(path.sep, 'home', 'me') };

  it('defaults to `irilint server`', () => {
    assert.deepEqual(resolveServerCommand({}), { command: 'irilint', args: ['server'] });
    assert.deepEqual(resolveServerCommand({ command: null, interpreter: null }), { command: 'irilint', args: ['server'] });
    assert.deepEqual(resolveServerCommand({ command: [], interpreter: '' }), { command: 'irilint', args: ['server'] });
    assert.deepEqual(resolveServerCommand({ command: '  ', interpreter: '  ' }), { command: 'irilint', args: ['server'] });
  });

  it('takes a list as the whole command line', () => {
    assert.deepEqual(resolveServerCommand({ command: ['/opt/irilint/bin/irilint', 'server', '--stdio'] }, ctx), {
      command: '/opt/irilint/bin/irilint',
      args: ['server', '--stdio'],
    });
    assert.deepEqual(resolveServerCommand({ command: ['pipx', 'run', 'irilint', 'server'] }, ctx), {
      command: 'pipx',
      args: ['run', 'irilint', 'server'],
    });
  });

  it('takes a string as the path of the irilint executable', () => {
    assert.deepEqual(resolveServerCommand({ command: '/usr/local/bin/irilint' }, ctx), {
      command: '/usr/local/bin/irilint',
      args: ['server'],
    });
  });

  it('runs `<interpreter> -m irilint server` when an interpreter is set, whatever the command', () => {
    assert.deepEqual(resolveServerCommand({ interpreter: '/usr/bin/python3', command: ['other', 'thing'] }, ctx), {
      command: '/usr/bin/python3',
      args: ['-m', 'irilint', 'server'],
    });
    assert.deepEqual(resolveServerCommand({ interpreter: 'python3' }, ctx), {
      command: 'python3',
      args: ['-m', 'irilint', 'server'],
    });
  });

  it('expands ~, ${workspaceFolder} and ${userHome}', () => {
    assert.equal(resolveServerCommand({ interpreter: '${workspaceFolder}/.venv/bin/python' }, ctx).command,
      `${ctx.workspaceFolder}/.venv/bin/python`);
    assert.equal(resolveServerCommand({ command: '~/bin/irilint' }, ctx).command, `${ctx.home}/bin/irilint`);
    assert.equal(resolveServerCommand({ command: ['${userHome}/x', '${workspaceFolder}/cfg'] }, ctx).command, `${ctx.home}/x`);
    assert.deepEqual(resolveServerCommand({ command: ['x', '${workspaceFolder}/cfg'] }, ctx).args, [`${ctx.workspaceFolder}/cfg`]);
    assert.equal(expandPath('${env:IRILINT_TEST_VAR}/irilint', {}, { IRILINT_TEST_VAR: '/e' }), '/e/irilint');
    assert.equal(expandPath('${workspaceFolder}/x', {}), '${workspaceFolder}/x');
  });

  it('takes relative paths with a directory from the workspace folder, bare names from PATH', () => {
    assert.equal(resolveServerCommand({ interpreter: '.venv/bin/python' }, ctx).command,
      path.join(ctx.workspaceFolder, '.venv/bin/python'));
    assert.equal(resolveServerCommand({ command: 'irilint' }, ctx).command, 'irilint');
    assert.equal(resolveServerCommand({ interpreter: '.venv/bin/python' }, {}).command, '.venv/bin/python');
  });
});

describe('document selector', () => {
  it('covers every language for files and untitled documents', () => {
    const selector = documentSelector();
    assert.equal(selector.length, LANGUAGE_IDS.length * 2);
    for (const language of LANGUAGE_IDS) {
      assert.ok(selector.some((f) => f.scheme === 'file' && f.language === language), language);
      assert.ok(selector.some((f) => f.scheme === 'untitled' && f.language === language), language);
    }
  });

  it('has the languages the brief asks for, with their VS Code ids', () => {
    for (const id of [
      'markdown', 'html', 'xml', 'plaintext', 'restructuredtext', 'python', 'javascript', 'javascriptreact',
      'typescript', 'typescriptreact', 'json', 'jsonc', 'yaml', 'toml', 'turtle',
    ]) {
      assert.ok(LANGUAGE_IDS.includes(id), id);
    }
    assert.equal(new Set(LANGUAGE_IDS).size, LANGUAGE_IDS.length);
  });

  it('gives one onLanguage activation event per language', () => {
    assert.deepEqual(activationEvents(), LANGUAGE_IDS.map((id) => `onLanguage:${id}`));
  });
});

describe('conversion commands', () => {
  const actions = [
    { title: 'Encode \'%\' as \'%25\'', kind: 'quickfix', edit: {} },
    { title: 'Convert to IRI', kind: 'refactor.rewrite', edit: { changes: {} } },
    { title: 'Convert to URI (2 references)', kind: 'refactor.rewrite', edit: {} },
    { title: 'Normalize to NFC', kind: 'refactor.rewrite', edit: {} },
  ];

  it('picks the action by exact title, else by prefix', () => {
    assert.equal(pickAction(actions, CONVERT_TITLES.iri), actions[1]);
    assert.equal(pickAction(actions, CONVERT_TITLES.uri), actions[2]);
  });

  it('finds nothing in an empty or missing answer', () => {
    assert.equal(pickAction([], 'Convert to URI'), undefined);
    assert.equal(pickAction(null, 'Convert to URI'), undefined);
    assert.equal(pickAction(undefined, 'Convert to URI'), undefined);
    assert.equal(pickAction([actions[0], actions[3]], 'Convert to URI'), undefined);
  });

  it('skips disabled actions', () => {
    const disabled = { title: 'Convert to URI', disabled: { reason: 'already a URI' } };
    assert.equal(pickAction([disabled], 'Convert to URI'), undefined);
  });

  it('says what is missing', () => {
    assert.match(nothingToConvertMessage('uri'), /no IRI under the cursor/);
    assert.match(nothingToConvertMessage('iri'), /no URI under the cursor/);
  });
});
