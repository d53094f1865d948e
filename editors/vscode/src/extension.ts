// The irilint extension: starts `irilint server` and talks to it through
// vscode-languageclient. Diagnostics, quick fixes, refactorings and hovers
// all come from the server; the extension adds settings, two commands that
// run the server's conversions directly, and a restart command.

import * as os from 'os';
import * as vscode from 'vscode';
import {
  CodeAction,
  CodeActionKind,
  CodeActionParams,
  CodeActionRequest,
  CodeActionTriggerKind,
  Command,
  ConfigurationParams,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import {
  CONFIG_FILE_GLOB,
  CONVERT_TITLES,
  ConvertTarget,
  SECTION,
  ServerCommand,
  documentSelector,
  nothingToConvertMessage,
  pickAction,
  readSettings,
  resolveServerCommand,
  toServerSettings,
} from './helpers';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;
let starting: Promise<void> | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('irilint');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('irilint.convertToUri', () => convert('uri')),
    vscode.commands.registerCommand('irilint.convertToIri', () => convert('iri')),
    vscode.commands.registerCommand('irilint.restartServer', () => restart()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.server`)) {
        void restart();
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void restart()),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}

function serverCommand(): ServerCommand {
  const config = vscode.workspace.getConfiguration(SECTION);
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  return resolveServerCommand(
    {
      command: config.get<string | string[]>('server.command'),
      interpreter: config.get<string | null>('server.interpreter'),
    },
    { workspaceFolder: folder?.uri.fsPath, home: os.homedir() },
  );
}

function createClient(): LanguageClient {
  const { command, args } = serverCommand();
  output?.appendLine(`Starting the irilint language server: ${[command, ...args].join(' ')}`);
  const serverOptions: ServerOptions = { run: { command, args }, debug: { command, args } };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(),
    outputChannel: output,
    initializationOptions: readSettings((key) => vscode.workspace.getConfiguration(SECTION).get(key)),
    synchronize: {
      configurationSection: SECTION,
      fileEvents: vscode.workspace.createFileSystemWatcher(CONFIG_FILE_GLOB),
    },
    middleware: {
      workspace: {
        // VS Code's settings are camelCase; the server takes the
        // configuration file's kebab-case keys.
        configuration: async (params: ConfigurationParams, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) {
            return result;
          }
          return result.map((value, i) =>
            params.items[i]?.section === SECTION ? toServerSettings(value) : value,
          );
        },
      },
    },
  };
  return new LanguageClient('irilint', 'irilint', serverOptions, clientOptions);
}

async function start(): Promise<void> {
  const c = createClient();
  client = c;
  try {
    await c.start();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    output?.appendLine(`The irilint language server failed to start: ${message}`);
    // Not awaited: activation must not wait for the user to answer.
    void vscode.window
      .showErrorMessage(
        'irilint: the language server could not be started. Install it with `pip install irilint`, ' +
          'or set "irilint.server.command" or "irilint.server.interpreter".',
        'Open Settings',
        'Show Output',
      )
      .then(async (choice) => {
        if (choice === 'Open Settings') {
          await vscode.commands.executeCommand('workbench.action.openSettings', 'irilint.server');
        } else if (choice === 'Show Output') {
          output?.show();
        }
      });
  }
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (!c) {
    return;
  }
  try {
    if (c.state !== State.Stopped) {
      await c.stop(5000);
    }
  } catch (err) {
    output?.appendLine(`Stopping the irilint language server: ${String(err)}`);
  }
  try {
    await c.dispose(2000);
  } catch {
    // already stopped
  }
}

/** Stops the server and starts it again with the current settings. */
async function restart(): Promise<void> {
  if (starting) {
    await starting;
  }
  starting = (async () => {
    await stop();
    await start();
  })();
  try {
    await starting;
  } finally {
    starting = undefined;
  }
}

/** Runs the server's "Convert to URI"/"Convert to IRI" at the selection. */
async function convert(target: ConvertTarget): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage('irilint: open a document first.');
    return;
  }
  const c = client;
  if (!c || !c.isRunning()) {
    void vscode.window.showWarningMessage('irilint: the language server is not running.');
    return;
  }
  const document = editor.document;
  if (vscode.languages.match(documentSelector(), document) === 0) {
    void vscode.window.showInformationMessage(
      `irilint: documents of language "${document.languageId}" are not checked by irilint.`,
    );
    return;
  }
  const params: CodeActionParams = {
    textDocument: c.code2ProtocolConverter.asTextDocumentIdentifier(document),
    range: c.code2ProtocolConverter.asRange(editor.selection),
    context: {
      diagnostics: [],
      only: [CodeActionKind.RefactorRewrite],
      triggerKind: CodeActionTriggerKind.Invoked,
    },
  };
  let actions: (Command | CodeAction)[] | null;
  try {
    actions = await c.sendRequest(CodeActionRequest.type, params);
  } catch (err) {
    void vscode.window.showErrorMessage(`irilint: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  const action = pickAction(actions, CONVERT_TITLES[target]);
  if (!action) {
    void vscode.window.showInformationMessage(nothingToConvertMessage(target));
    return;
  }
  if (CodeAction.is(action)) {
    if (action.edit) {
      const edit = await c.protocol2CodeConverter.asWorkspaceEdit(action.edit);
      const applied = await vscode.workspace.applyEdit(edit);
      if (!applied) {
        void vscode.window.showWarningMessage('irilint: the edit could not be applied.');
      }
    }
    if (action.command) {
      await c.sendRequest(ExecuteCommandRequest.type, {
        command: action.command.command,
        arguments: action.command.arguments,
      });
    }
    return;
  }
  // A bare Command (servers answer so to clients without code action literals).
  await c.sendRequest(ExecuteCommandRequest.type, { command: action.command, arguments: action.arguments });
}
