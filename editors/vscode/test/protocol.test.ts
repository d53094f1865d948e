// Drives the REAL irilint language server over stdio the way VS Code does:
// VS Code's initialize capabilities (pull diagnostics, code action literals,
// Markdown hover, UTF-16), the extension's settings through
// workspace/configuration, then diagnostics, code actions and hover on a
// Markdown document.
//
// The server is $IRILINT_SERVER (CI sets it), else `irilint` on PATH; the
// suite is skipped only when neither exists.

import { strict as assert } from 'node:assert';
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

import {
  CodeAction,
  CodeActionKind,
  CodeActionRequest,
  CodeActionTriggerKind,
  Command,
  ConfigurationParams,
  ConfigurationRequest,
  Diagnostic,
  DiagnosticSeverity,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticReportKind,
  DocumentDiagnosticRequest,
  ExitNotification,
  FullDocumentDiagnosticReport,
  Hover,
  HoverRequest,
  InitializeRequest,
  InitializeResult,
  InitializedNotification,
  LogMessageNotification,
  MarkupContent,
  Position,
  ProtocolConnection,
  PublishDiagnosticsNotification,
  PublishDiagnosticsParams,
  Range,
  RegistrationParams,
  RegistrationRequest,
  ShowMessageNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  TextEdit,
  WorkspaceEdit,
  createProtocolConnection,
} from 'vscode-languageserver-protocol/node';

import { SERVER_COMMANDS, readSettings, toServerSettings } from '../src/helpers';

/** Every wait in this file is bounded by this (milliseconds). */
const TIMEOUT = Number(process.env.IRILINT_PROTOCOL_TIMEOUT_MS ?? 20000);

function findServer(): string | undefined {
  const env = process.env.IRILINT_SERVER;
  if (env && env.trim()) {
    return env.trim();
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) {
      continue;
    }
    const candidate = path.join(dir, process.platform === 'win32' ? 'irilint.exe' : 'irilint');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function withTimeout<T>(promise: Promise<T>, what: string, ms = TIMEOUT): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A promise resolved by the first value that `check` accepts. */
class Waiter<T> {
  private readonly seen: T[] = [];
  private readonly waiting: { check: (v: T) => boolean; resolve: (v: T) => void }[] = [];

  push(value: T): void {
    this.seen.push(value);
    for (const w of [...this.waiting]) {
      if (w.check(value)) {
        this.waiting.splice(this.waiting.indexOf(w), 1);
        w.resolve(value);
      }
    }
  }

  all(): readonly T[] {
    return this.seen;
  }

  wait(what: string, check: (v: T) => boolean = () => true): Promise<T> {
    const hit = this.seen.find(check);
    if (hit !== undefined) {
      return Promise.resolve(hit);
    }
    return withTimeout(new Promise<T>((resolve) => this.waiting.push({ check, resolve })), what);
  }
}

// --- the document ----------------------------------------------------------

const LINES = [
  '# Links',
  // U+2028 is no line break in LSP: the lines below keep their numbers.
  'One line\u2028that an editor may draw as two.',
  'See http://example.com/abc%E2%80%AEgpj.exe for the file.',
  'Progress: http://e.org/100% done.',
  'A URI to read as an IRI: http://example.org/caf%C3%A9 here.',
  'An IRI to send as a URI: http://例え.jp/パス here.',
  '\u{1F600} Astral first, then http://e.org/50% off.',
  '',
];
const TEXT = LINES.join('\n');

/** The position of `needle`'s `at`-th UTF-16 code unit (JS strings are UTF-16, like VS Code's positions). */
function positionOf(needle: string, at = 0, occurrence = 0): Position {
  let from = 0;
  let index = -1;
  for (let i = 0; i <= occurrence; i++) {
    index = TEXT.indexOf(needle, from);
    assert.ok(index >= 0, `${needle} is in the document`);
    from = index + 1;
  }
  index += at;
  const before = TEXT.slice(0, index);
  const line = before.split('\n').length - 1;
  const character = index - (before.lastIndexOf('\n') + 1);
  return { line, character };
}

function rangeOf(needle: string, occurrence = 0): Range {
  const start = positionOf(needle, 0, occurrence);
  return { start, end: { line: start.line, character: start.character + needle.length } };
}

function oneChar(start: Position): Range {
  return { start, end: { line: start.line, character: start.character + 1 } };
}

function offsetAt(text: string, pos: Position): number {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < pos.line; i++) {
    offset += lines[i].length + 1;
  }
  return offset + pos.character;
}

/** Applies LSP text edits (UTF-16 positions) to `text`. */
function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => offsetAt(text, b.range.start) - offsetAt(text, a.range.start));
  let out = text;
  for (const e of sorted) {
    out = out.slice(0, offsetAt(out, e.range.start)) + e.newText + out.slice(offsetAt(out, e.range.end));
  }
  return out;
}

/** The text edits of a WorkspaceEdit for `uri` (documentChanges or changes). */
function editsFor(edit: WorkspaceEdit | undefined, uri: string, version?: number): TextEdit[] {
  assert.ok(edit, 'the action carries an edit');
  const out: TextEdit[] = [];
  if (edit.documentChanges) {
    for (const change of edit.documentChanges) {
      assert.ok('textDocument' in change, 'only text document edits');
      assert.equal(change.textDocument.uri, uri);
      if (version !== undefined) {
        assert.equal(change.textDocument.version, version, 'the edit is for the current version');
      }
      out.push(...(change.edits as TextEdit[]));
    }
  } else {
    assert.ok(edit.changes, 'documentChanges or changes');
    out.push(...(edit.changes[uri] ?? []));
  }
  return out;
}

function lineOf(text: string, line: number): string {
  return text.split('\n')[line];
}

// --- the session -------------------------------------------------------------

const serverPath = findServer();
const capabilities = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', '..', 'test', 'fixtures', 'vscode-client-capabilities.json'), 'utf8'),
);

// What the extension sends: VS Code settings (camelCase) through the
// extension's conversion.
const EDITOR_SETTINGS = { severity: { IRI401: 'warning' }, protectedDomains: ['example.com'], debounce: 0, select: null };
const INIT_SETTINGS = readSettings((key) => (key === 'debounce' ? 0 : undefined));

describe('irilint server, as VS Code drives it', { skip: serverPath ? false : 'no irilint: set IRILINT_SERVER or put irilint on PATH' }, () => {
  let child: ChildProcess;
  let connection: ProtocolConnection;
  let stderr = '';
  let exited: Promise<number | null>;
  let workspace: string;
  let uri: string;
  let init: InitializeResult;
  let version = 1;
  let text = TEXT;
  const configurationRequests = new Waiter<ConfigurationParams>();
  const registrations = new Waiter<RegistrationParams>();
  const pushed = new Waiter<PublishDiagnosticsParams>();
  const messages: string[] = [];
  let diagnostics: Diagnostic[] = [];

  before(async () => {
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'irilint-vscode-')));
    const file = path.join(workspace, 'links.md');
    fs.writeFileSync(file, TEXT);
    uri = pathToFileURL(file).href;

    child = spawn(serverPath as string, ['server'], { cwd: workspace, stdio: ['pipe', 'pipe', 'pipe'] });
    exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));

    connection.onRequest(ConfigurationRequest.type, (params) => {
      configurationRequests.push(params);
      // What vscode-languageclient answers, after the extension's middleware.
      return params.items.map((item) => (item.section === 'irilint' ? toServerSettings(EDITOR_SETTINGS) : null));
    });
    connection.onRequest(RegistrationRequest.type, (params) => {
      registrations.push(params);
    });
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onRequest('workspace/diagnostic/refresh', () => null);
    connection.onRequest('window/showMessageRequest', () => null);
    connection.onRequest('workspace/applyEdit', () => ({ applied: true }));
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => pushed.push(params));
    connection.onNotification(ShowMessageNotification.type, (params) => messages.push(params.message));
    connection.onNotification(LogMessageNotification.type, (params) => messages.push(params.message));
    connection.listen();

    init = await withTimeout(
      connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        clientInfo: { name: 'Visual Studio Code', version: '1.82.0' },
        locale: 'en',
        rootPath: workspace,
        rootUri: pathToFileURL(workspace).href,
        capabilities,
        initializationOptions: INIT_SETTINGS,
        trace: 'off',
        workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: path.basename(workspace) }],
      }),
      'initialize',
    );
    await connection.sendNotification(InitializedNotification.type, {});
  });

  after(async () => {
    try {
      if (connection && child && child.exitCode === null) {
        await withTimeout(connection.sendRequest(ShutdownRequest.type), 'shutdown', 5000).catch(() => undefined);
        await connection.sendNotification(ExitNotification.type).catch(() => undefined);
        const code = await withTimeout(exited, 'the server to exit', 5000).catch(() => undefined);
        if (code === undefined) {
          child.kill();
        }
      }
    } finally {
      connection?.dispose();
      if (workspace) {
        fs.rmSync(workspace, { recursive: true, force: true });
      }
    }
  });

  function failMessage(what: string): string {
    return `${what}\n--- server stderr ---\n${stderr.slice(-4000)}\n--- messages ---\n${messages.join('\n')}`;
  }

  it('answers initialize with pull diagnostics, code actions and hover', () => {
    const caps = init.capabilities;
    assert.equal(init.serverInfo?.name, 'irilint');
    assert.ok(caps.diagnosticProvider, 'a pulling client gets diagnosticProvider');
    assert.ok(caps.positionEncoding === undefined || caps.positionEncoding === 'utf-16', 'UTF-16, what VS Code offers');
    assert.ok(caps.hoverProvider);
    assert.ok(caps.codeActionProvider && typeof caps.codeActionProvider === 'object', 'code action options');
    const kinds = (caps.codeActionProvider as { codeActionKinds?: string[] }).codeActionKinds ?? [];
    assert.ok(kinds.includes(CodeActionKind.QuickFix), 'quickfix');
    assert.ok(kinds.includes(CodeActionKind.RefactorRewrite), 'refactor.rewrite');
    assert.ok(caps.textDocumentSync, 'text sync');
    // the commands the extension leaves to the language client to register
    for (const command of SERVER_COMMANDS) {
      assert.ok(caps.executeCommandProvider?.commands.includes(command), `the server runs ${command}`);
    }
  });

  it('asks for the "irilint" section with workspace/configuration', async () => {
    const params = await configurationRequests.wait('workspace/configuration');
    assert.ok(params.items.some((item) => item.section === 'irilint'));
  });

  it('registers a watcher on the configuration files', async () => {
    const params = await registrations.wait('client/registerCapability for file watchers', (p) =>
      p.registrations.some((r) => r.method === 'workspace/didChangeWatchedFiles'));
    const reg = params.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles')!;
    const globs = (reg.registerOptions as { watchers: { globPattern: unknown }[] }).watchers.map((w) => String(w.globPattern));
    for (const name of ['pyproject.toml', 'irilint.toml', '.irilint.toml']) {
      assert.ok(globs.some((g) => g.endsWith(name)), `${name} is watched (${globs.join(', ')})`);
    }
  });

  it('reports IRI102 and IRI401 with exact UTF-16 ranges when pulled', async () => {
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'markdown', version, text },
    });
    const report = (await withTimeout(
      connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } }),
      'textDocument/diagnostic',
    )) as FullDocumentDiagnosticReport;
    assert.equal(report.kind, DocumentDiagnosticReportKind.Full, failMessage('a full report'));
    diagnostics = report.items;
    const summary = diagnostics.map((d) => `${d.code}@${d.range.start.line}:${d.range.start.character}`).join(', ');

    const bidi = diagnostics.filter((d) => d.code === 'IRI102');
    assert.equal(bidi.length, 1, failMessage(`one IRI102 (got ${summary})`));
    assert.deepEqual(bidi[0].range, rangeOf('%E2%80%AE'));
    assert.deepEqual(bidi[0].range, { start: { line: 2, character: 26 }, end: { line: 2, character: 35 } });
    assert.equal(bidi[0].severity, DiagnosticSeverity.Error);

    const percent = diagnostics.filter((d) => d.code === 'IRI401');
    assert.equal(percent.length, 2, failMessage(`two IRI401 (got ${summary})`));
    assert.deepEqual(percent[0].range, { start: { line: 3, character: 26 }, end: { line: 3, character: 27 } });
    assert.deepEqual(percent[0].range, oneChar(positionOf('100% done', 3)));
    // After an astral character (two UTF-16 code units): VS Code's columns.
    assert.deepEqual(percent[1].range, oneChar(positionOf('50% off', 2)));
    assert.deepEqual(percent[1].range, { start: { line: 6, character: 37 }, end: { line: 6, character: 38 } });
    // The editor settings reached the server: IRI401 is an error by default.
    for (const d of percent) {
      assert.equal(d.severity, DiagnosticSeverity.Warning, 'severity from the editor settings');
    }

    for (const d of [...bidi, ...percent]) {
      assert.equal(d.source, 'irilint');
      assert.ok(d.message.length > 0);
      assert.ok(d.codeDescription?.href, 'codeDescription.href');
      assert.match(d.codeDescription!.href, new RegExp(`#${String(d.code).toLowerCase()}`));
    }
  });

  it('offers the preferred quick fix for IRI401', async () => {
    const diag = diagnostics.find((d) => d.code === 'IRI401')!;
    assert.ok(diag, 'IRI401 found before');
    const actions = (await withTimeout(
      connection.sendRequest(CodeActionRequest.type, {
        textDocument: { uri },
        range: diag.range,
        context: { diagnostics: [diag], triggerKind: CodeActionTriggerKind.Automatic },
      }),
      'textDocument/codeAction',
    )) as (Command | CodeAction)[];
    assert.ok(Array.isArray(actions));
    for (const a of actions) {
      assert.ok(CodeAction.is(a), `a code action literal, not a command: ${a.title}`);
    }
    const fixes = (actions as CodeAction[]).filter((a) => a.kind === CodeActionKind.QuickFix);
    const preferred = fixes.filter((a) => a.isPreferred);
    assert.equal(preferred.length, 1, `one preferred quick fix among ${fixes.map((a) => a.title).join(' | ')}`);
    const fix = preferred[0];
    assert.ok(fix.diagnostics?.some((d) => d.code === 'IRI401'), 'the fix names its diagnostic');
    const edits = editsFor(fix.edit, uri, version);
    const fixed = applyEdits(text, edits);
    assert.equal(lineOf(fixed, 3), 'Progress: http://e.org/100%25 done.');
  });

  it('converts a URI to an IRI at the cursor (refactor.rewrite, "Convert to IRI")', async () => {
    const cursor = positionOf('caf%C3%A9', 2);
    const actions = (await withTimeout(
      connection.sendRequest(CodeActionRequest.type, {
        textDocument: { uri },
        range: { start: cursor, end: cursor },
        context: { diagnostics: [], only: [CodeActionKind.RefactorRewrite], triggerKind: CodeActionTriggerKind.Invoked },
      }),
      'textDocument/codeAction (refactor.rewrite)',
    )) as CodeAction[];
    const titles = actions.map((a) => a.title);
    const convert = actions.find((a) => a.title === 'Convert to IRI');
    assert.ok(convert, `"Convert to IRI" among ${titles.join(' | ')}`);
    assert.equal(convert.kind, CodeActionKind.RefactorRewrite);
    for (const a of actions) {
      assert.ok(a.kind?.startsWith('refactor'), `only refactorings with only=refactor.rewrite: ${a.title}`);
    }
    assert.equal(lineOf(applyEdits(text, editsFor(convert.edit, uri, version)), 4),
      'A URI to read as an IRI: http://example.org/café here.');
    assert.ok(!actions.some((a) => a.title === 'Convert to URI'), 'already a URI');
  });

  it('converts an IRI to a URI at the cursor ("Convert to URI")', async () => {
    const cursor = positionOf('パス', 1);
    const actions = (await withTimeout(
      connection.sendRequest(CodeActionRequest.type, {
        textDocument: { uri },
        range: { start: cursor, end: cursor },
        context: { diagnostics: [], only: [CodeActionKind.RefactorRewrite], triggerKind: CodeActionTriggerKind.Invoked },
      }),
      'textDocument/codeAction (Convert to URI)',
    )) as CodeAction[];
    const convert = actions.find((a) => a.title === 'Convert to URI');
    assert.ok(convert, `"Convert to URI" among ${actions.map((a) => a.title).join(' | ')}`);
    assert.equal(lineOf(applyEdits(text, editsFor(convert.edit, uri, version)), 5),
      'An IRI to send as a URI: http://xn--r8jz45g.jp/%E3%83%91%E3%82%B9 here.');
  });

  it('offers no conversion away from IRIs', async () => {
    const cursor = { line: 0, character: 2 };
    const actions = (await withTimeout(
      connection.sendRequest(CodeActionRequest.type, {
        textDocument: { uri },
        range: { start: cursor, end: cursor },
        context: { diagnostics: [], only: [CodeActionKind.RefactorRewrite], triggerKind: CodeActionTriggerKind.Invoked },
      }),
      'textDocument/codeAction (nothing)',
    )) as CodeAction[] | null;
    assert.deepEqual(actions ?? [], []);
  });

  it('shows a Markdown hover on an IRI', async () => {
    const hover = (await withTimeout(
      connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionOf('abc%E2', 1) }),
      'textDocument/hover',
    )) as Hover | null;
    assert.ok(hover, 'a hover');
    const contents = hover.contents as MarkupContent;
    assert.equal(contents.kind, 'markdown');
    assert.match(contents.value, /example\.com/);
    assert.match(contents.value, /URI form/);
    if (hover.range) {
      assert.equal(hover.range.start.line, 2);
    }
    // An IRI: its characters and its URI form.
    const iri = (await withTimeout(
      connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionOf('例え.jp', 1) }),
      'textDocument/hover (IRI)',
    )) as Hover | null;
    assert.ok(iri, 'a hover on the IRI');
    const value = (iri.contents as MarkupContent).value;
    assert.match(value, /U\+4F8B/, 'the table of non-ASCII characters');
    assert.match(value, /xn--r8jz45g\.jp/, 'the URI form');
    const none = await withTimeout(
      connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 3 } }),
      'textDocument/hover (no IRI)',
    );
    assert.equal(none, null);
  });

  it('pulls fresh diagnostics after an incremental change', async () => {
    const pos = positionOf('100% done', 3);
    version += 1;
    await connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: pos, end: { line: pos.line, character: pos.character + 1 } }, text: '%25' }],
    });
    text = applyEdits(text, [{ range: { start: pos, end: { line: pos.line, character: pos.character + 1 } }, newText: '%25' }]);
    const report = (await withTimeout(
      connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } }),
      'textDocument/diagnostic after didChange',
    )) as FullDocumentDiagnosticReport;
    assert.equal(report.kind, DocumentDiagnosticReportKind.Full);
    const percent = report.items.filter((d) => d.code === 'IRI401');
    assert.equal(percent.length, 1, 'the fixed one is gone');
    assert.equal(percent[0].range.start.line, 6);
    assert.equal(report.items.filter((d) => d.code === 'IRI102').length, 1);
  });

  it('never pushes diagnostics to a pulling client', () => {
    assert.deepEqual(pushed.all(), []);
  });

  it('shuts down cleanly', async () => {
    await withTimeout(connection.sendRequest(ShutdownRequest.type), 'shutdown');
    await connection.sendNotification(ExitNotification.type);
    const code = await withTimeout(exited, 'the server to exit');
    assert.equal(code, 0, failMessage('exit code 0 after shutdown + exit'));
  });
});
