// package.json agrees with the code: activation events, settings, commands,
// and the version pins the marketplace checks.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { LANGUAGE_IDS, SERVER_COMMANDS, SETTING_KEYS, activationEvents } from '../src/helpers';

const root = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const properties: Record<string, any> = pkg.contributes.configuration.properties;

describe('package.json', () => {
  it('activates on every checked language', () => {
    assert.deepEqual([...pkg.activationEvents].sort(), activationEvents().sort());
    assert.ok(LANGUAGE_IDS.includes('turtle'));
  });

  it('contributes one setting per server key, unset by default', () => {
    for (const key of Object.keys(SETTING_KEYS)) {
      const prop = properties[`irilint.${key}`];
      assert.ok(prop, `irilint.${key} is contributed`);
      assert.equal(prop.default, null, `irilint.${key} defaults to null (the project's value)`);
      assert.ok(Array.isArray(prop.type) && prop.type.includes('null'), `irilint.${key} accepts null`);
    }
    const own = new Set(['irilint.server.command', 'irilint.server.interpreter', 'irilint.trace.server']);
    for (const name of Object.keys(properties)) {
      if (!own.has(name)) {
        assert.ok(name.slice('irilint.'.length) in SETTING_KEYS, `${name} is sent to the server`);
      }
    }
  });

  it('contributes the server settings', () => {
    assert.deepEqual(properties['irilint.server.command'].default, ['irilint', 'server']);
    assert.deepEqual(properties['irilint.server.command'].type, ['array', 'string']);
    assert.equal(properties['irilint.server.interpreter'].default, null);
    assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.sort(),
      ['irilint.server.command', 'irilint.server.interpreter']);
  });

  it('contributes the commands', () => {
    const commands = Object.fromEntries(pkg.contributes.commands.map((c: any) => [c.command, c]));
    assert.equal(commands['irilint.convertToUri'].title, 'Convert IRI to URI');
    assert.equal(commands['irilint.convertToIri'].title, 'Convert URI to IRI');
    assert.equal(commands['irilint.restartServer'].title, 'Restart Server');
    for (const c of pkg.contributes.commands) {
      assert.equal(c.category, 'irilint');
    }
    const source = fs.readFileSync(path.join(root, 'src', 'extension.ts'), 'utf8');
    assert.equal(commands['irilint.checkWorkspace'].title, 'Check the Workspace');
    for (const c of pkg.contributes.commands) {
      // the server's commands are registered by the language client
      const registered = source.includes(`registerCommand('${c.command}'`);
      assert.ok(registered !== SERVER_COMMANDS.includes(c.command), `${c.command} is registered once`);
    }
  });

  it('pins @types/vscode to the lowest supported VS Code', () => {
    assert.equal(pkg.engines.vscode, '^1.82.0');
    assert.equal(pkg.devDependencies['@types/vscode'], '1.82.0');
    assert.match(pkg.dependencies['vscode-languageclient'], /^\^9\./);
    assert.match(pkg.devDependencies['@vscode/vsce'], /^\^3\./);
    assert.match(pkg.devDependencies.typescript, /^~5\./);
  });

  it('has the marketplace fields', () => {
    assert.equal(pkg.publisher, 'irilint');
    assert.equal(pkg.license, 'MIT');
    assert.ok(pkg.repository);
    assert.equal(pkg.main, './out/extension.js');
    assert.ok(fs.existsSync(path.join(root, 'LICENSE')));
    assert.ok(fs.existsSync(path.join(root, 'README.md')));
  });
});
