// What the packaged .vsix holds: the manifest, the compiled extension, the
// README and LICENSE, the vscode-languageclient runtime with everything it
// requires, and no sources or tests. Run after `npm run package`
// ($IRILINT_VSIX, default irilint.vsix next to package.json).

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as zlib from 'node:zlib';

const root = path.resolve(__dirname, '..', '..');
const vsixPath = path.resolve(root, process.env.IRILINT_VSIX ?? 'irilint.vsix');

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** The central directory of a zip file (no zip64, no multi-disk: a .vsix is neither). */
function readZip(buf: Buffer): Entry[] {
  const EOCD = 0x06054b50;
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  assert.ok(eocd >= 0, 'end of central directory found');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries: Entry[] = [];
  for (let n = 0; n < count; n++) {
    assert.equal(buf.readUInt32LE(p), 0x02014b50, 'central directory header');
    const method = buf.readUInt16LE(p + 10);
    const compressedSize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLength = buf.readUInt16LE(p + 28);
    const extraLength = buf.readUInt16LE(p + 30);
    const commentLength = buf.readUInt16LE(p + 32);
    const localOffset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLength);
    entries.push({ name, method, compressedSize, size, localOffset });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function extract(buf: Buffer, entry: Entry): Buffer {
  const p = entry.localOffset;
  assert.equal(buf.readUInt32LE(p), 0x04034b50, `local header of ${entry.name}`);
  const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
  const data = buf.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) {
    return Buffer.from(data);
  }
  assert.equal(entry.method, 8, `${entry.name}: stored or deflated`);
  const out = zlib.inflateRawSync(data);
  assert.equal(out.length, entry.size, `${entry.name}: size`);
  return out;
}

describe('the .vsix', { skip: fs.existsSync(vsixPath) ? false : `no ${vsixPath}: run npm run package first` }, () => {
  let buf: Buffer;
  let entries: Entry[];
  let names: Set<string>;
  let dir: string;

  before(() => {
    buf = fs.readFileSync(vsixPath);
    entries = readZip(buf);
    names = new Set(entries.map((e) => e.name));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'irilint-vsix-'));
  });

  after(() => {
    if (dir) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has the manifest, the extension, the README and the LICENSE', () => {
    for (const name of [
      'extension.vsixmanifest',
      '[Content_Types].xml',
      'extension/package.json',
      'extension/out/extension.js',
      'extension/out/helpers.js',
    ]) {
      assert.ok(names.has(name), `${name} in ${[...names].slice(0, 20).join(', ')}`);
    }
    // vsce stores the README as readme.md and the LICENSE as LICENSE.txt.
    const readme = entries.find((e) => e.name.toLowerCase() === 'extension/readme.md');
    assert.ok(readme, 'extension/README.md (any case)');
    assert.equal(extract(buf, readme).toString('utf8'), fs.readFileSync(path.join(root, 'README.md'), 'utf8'));
    const license = entries.find((e) => /^extension\/LICENSE(\.(txt|md))?$/i.test(e.name));
    assert.ok(license, 'extension/LICENSE*');
    assert.match(extract(buf, license).toString('utf8'), /^MIT License/);
  });

  it('ships the vscode-languageclient runtime', () => {
    for (const name of [
      'extension/node_modules/vscode-languageclient/package.json',
      'extension/node_modules/vscode-languageclient/node.js',
      'extension/node_modules/vscode-languageclient/lib/node/main.js',
      'extension/node_modules/vscode-languageserver-protocol/package.json',
      'extension/node_modules/vscode-jsonrpc/package.json',
    ]) {
      assert.ok(names.has(name), name);
    }
  });

  it('has no sources, tests, dev dependencies or build files', () => {
    for (const name of names) {
      assert.ok(!/^extension\/src\//.test(name), `no sources: ${name}`);
      assert.ok(!/^extension\/(test|out-test)\//.test(name), `no tests: ${name}`);
      assert.ok(!/^extension\/out\/.*\.test\.js$/.test(name), `no compiled tests: ${name}`);
      assert.ok(!/\.ts$/.test(name), `no TypeScript: ${name}`);
      assert.ok(!/\.vsix$/.test(name), `no package in the package: ${name}`);
      assert.ok(!/^extension\/(tsconfig\.json|ci\.sh|\.vscodeignore|\.gitignore)$/.test(name), `no build files: ${name}`);
      for (const dev of ['typescript', '@vscode/vsce', '@types', 'vscode-languageserver-protocol/node_modules']) {
        assert.ok(!name.startsWith(`extension/node_modules/${dev}/`), `no dev dependency: ${name}`);
      }
    }
  });

  it('carries the manifest of this package.json', () => {
    const entry = entries.find((e) => e.name === 'extension/package.json')!;
    const shipped = JSON.parse(extract(buf, entry).toString('utf8'));
    const source = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    assert.equal(shipped.name, source.name);
    assert.equal(shipped.publisher, 'irilint');
    assert.equal(shipped.version, source.version);
    assert.equal(shipped.main, './out/extension.js');
    assert.deepEqual(shipped.contributes, source.contributes);
    assert.deepEqual(shipped.activationEvents, source.activationEvents);
  });

  it('loads from the unpacked .vsix alone (every runtime require is inside)', () => {
    for (const entry of entries) {
      if (!entry.name.startsWith('extension/') || entry.name.endsWith('/')) {
        continue;
      }
      const target = path.join(dir, entry.name);
      assert.ok(target.startsWith(dir + path.sep), `a safe path: ${entry.name}`);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, extract(buf, entry));
    }
    // `vscode` is provided by the editor: a stub that hands out empty
    // classes is enough to load the modules.
    const script = `
      const Module = require('module');
      const stub = new Proxy({}, { get: (t, p) => (p in t ? t[p] : (t[p] = class {})) });
      const resolve = Module._resolveFilename;
      Module._resolveFilename = function (request, ...rest) {
        return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest);
      };
      require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: stub };
      const ext = require(${JSON.stringify(path.join(dir, 'extension', 'out', 'extension.js'))});
      if (typeof ext.activate !== 'function' || typeof ext.deactivate !== 'function') {
        throw new Error('activate/deactivate missing');
      }
      const client = require.resolve('vscode-languageclient/node', { paths: [${JSON.stringify(path.join(dir, 'extension', 'out'))}] });
      process.stdout.write(client);
    `;
    const run = spawnSync(process.execPath, ['-e', script], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
      timeout: 30000,
    });
    assert.equal(run.status, 0, `loading the extension failed:\n${run.stderr}`);
    assert.ok(run.stdout.startsWith(path.join(dir, 'extension', 'node_modules', 'vscode-languageclient')),
      `vscode-languageclient comes from the .vsix: ${run.stdout}`);
  });

  it('is small', () => {
    const size = fs.statSync(vsixPath).size;
    assert.ok(size < 2 * 1024 * 1024, `${size} bytes`);
  });
});
