//! Starts `irilint server` for Zed.  The command is, first found: the
//! `lsp.irilint.binary` setting (`path`, `arguments`), then `irilint` on the
//! worktree's PATH.  The `lsp.irilint.initialization_options` and
//! `lsp.irilint.settings` settings reach the server as initializationOptions
//! and as the `irilint` section of workspace/configuration.
use zed_extension_api::{self as zed, serde_json, settings::LspSettings, LanguageServerId, Result};

struct IrilintExtension;

impl zed::Extension for IrilintExtension {
    fn new() -> Self {
        IrilintExtension
    }

    fn language_server_command(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<zed::Command> {
        let binary = LspSettings::for_worktree(language_server_id.as_ref(), worktree)
            .ok()
            .and_then(|settings| settings.binary);
        let configured_path = binary.as_ref().and_then(|b| b.path.clone());
        let command = match configured_path.or_else(|| worktree.which("irilint")) {
            Some(path) => path,
            None => {
                return Err("irilint is not on PATH: install it (pip install \
                            \"git+https://github.com/irilint/irilint\") or set \
                            lsp.irilint.binary.path"
                    .into())
            }
        };
        let args = binary
            .and_then(|b| b.arguments)
            .unwrap_or_else(|| vec!["server".to_string()]);
        Ok(zed::Command {
            command,
            args,
            env: worktree.shell_env(),
        })
    }

    fn language_server_initialization_options(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<serde_json::Value>> {
        Ok(LspSettings::for_worktree(language_server_id.as_ref(), worktree)
            .ok()
            .and_then(|settings| settings.initialization_options))
    }

    fn language_server_workspace_configuration(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<serde_json::Value>> {
        Ok(LspSettings::for_worktree(language_server_id.as_ref(), worktree)
            .ok()
            .and_then(|settings| settings.settings)
            .map(|settings| serde_json::json!({ "irilint": settings })))
    }
}

zed::register_extension!(IrilintExtension);
