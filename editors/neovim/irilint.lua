-- irilint.lua: the irilint language server in Neovim >= 0.7.
--
-- Plain vim.lsp API (vim.lsp.start_client + vim.lsp.buf_attach_client), so it
-- works on Neovim 0.7.2 (Debian 12's `neovim`) without nvim-lspconfig.
--
-- Use it either way:
--   * as a module: copy this file to ~/.config/nvim/lua/irilint.lua, then in
--     init.lua:   require('irilint').setup()          -- or setup{...}
--   * as a script: `:luafile /path/to/irilint.lua` (or `nvim -u NONE -c
--     'luafile irilint.lua'`), which calls setup() with the defaults.
--
-- The server command is, first found:
--   1. setup{ cmd = {...} }
--   2. $IRILINT_SERVER_CMD: a JSON array of strings (["/venv/bin/irilint",
--      "server"]) or a whitespace-separated command line (irilint server)
--   3. { "irilint", "server" }
local M = {}

M.filetypes = {
  "markdown", "html", "xml", "text", "rst", "python", "javascript",
  "typescript", "json", "yaml", "toml", "turtle",
}

-- Neovim filetype -> LSP language id, where they differ.
M.language_ids = { text = "plaintext", rst = "restructuredtext" }

M.root_markers = { ".irilint.toml", "irilint.toml", "pyproject.toml", ".git" }

M.options = {
  cmd = nil,
  filetypes = nil,
  root_markers = nil,
  -- Sent as initializationOptions, and answered to workspace/configuration.
  init_options = nil,
  settings = nil,
  -- Passed to start_client's `flags`.
  debounce_text_changes = 150,
  on_attach = nil,
}

-- root_dir -> client id
M.clients = {}

local function env_cmd()
  local env = vim.env.IRILINT_SERVER_CMD
  if env == nil or env == "" then
    return nil
  end
  if env:match("^%s*%[") then
    local ok, decoded = pcall(vim.fn.json_decode, env)
    if ok and type(decoded) == "table" and #decoded > 0 then
      return decoded
    end
    vim.notify("irilint: $IRILINT_SERVER_CMD is not a JSON array of strings: " .. env,
      vim.log.levels.ERROR)
    return nil
  end
  return vim.fn.split(env)
end

function M.command()
  return M.options.cmd or env_cmd() or { "irilint", "server" }
end

local function is_dir(path)
  return vim.fn.isdirectory(path) == 1
end

-- The nearest ancestor of the buffer's file that holds a root marker, else the
-- file's own directory (else the working directory for unnamed buffers).
function M.root_dir(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == "" then
    return vim.fn.getcwd()
  end
  local dir = vim.fn.fnamemodify(name, ":p:h")
  local markers = M.options.root_markers or M.root_markers
  local cur = dir
  while true do
    for _, marker in ipairs(markers) do
      local p = cur .. "/" .. marker
      if vim.fn.filereadable(p) == 1 or is_dir(p) then
        return cur
      end
    end
    local parent = vim.fn.fnamemodify(cur, ":h")
    if parent == cur then
      break
    end
    cur = parent
  end
  return dir
end

local function live(client_id)
  if client_id == nil then
    return false
  end
  local client = vim.lsp.get_client_by_id(client_id)
  return client ~= nil and not client.is_stopped()
end

function M.start(root_dir)
  local existing = M.clients[root_dir]
  if live(existing) then
    return existing
  end
  local cmd = M.command()
  if vim.fn.executable(cmd[1]) ~= 1 then
    vim.notify("irilint: cannot run '" .. cmd[1] .. "' (install irilint, or set $IRILINT_SERVER_CMD)",
      vim.log.levels.WARN)
    return nil
  end
  local client_id = vim.lsp.start_client({
    name = "irilint",
    cmd = cmd,
    root_dir = root_dir,
    workspace_folders = { { uri = vim.uri_from_fname(root_dir), name = root_dir } },
    init_options = M.options.init_options,
    settings = M.options.settings or {},
    flags = { debounce_text_changes = M.options.debounce_text_changes },
    get_language_id = function(_, filetype)
      return M.language_ids[filetype] or filetype
    end,
    on_attach = M.options.on_attach,
  })
  M.clients[root_dir] = client_id
  return client_id
end

function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.api.nvim_buf_get_option(bufnr, "buftype") ~= "" then
    return nil
  end
  local client_id = M.start(M.root_dir(bufnr))
  if client_id ~= nil then
    vim.lsp.buf_attach_client(bufnr, client_id)
  end
  return client_id
end

-- The irilint client attached to a buffer, or nil.
function M.client(bufnr)
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr or 0)) do
    if client.name == "irilint" then
      return client
    end
  end
  return nil
end

function M.setup(opts)
  M.options = vim.tbl_extend("force", M.options, opts or {})
  local group = vim.api.nvim_create_augroup("irilint", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = M.options.filetypes or M.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
    desc = "Attach the irilint language server",
  })
  -- Buffers that already have one of the filetypes (setup() after :edit).
  local wanted = {}
  for _, ft in ipairs(M.options.filetypes or M.filetypes) do
    wanted[ft] = true
  end
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and wanted[vim.api.nvim_buf_get_option(bufnr, "filetype")] then
      M.attach(bufnr)
    end
  end
  return M
end

-- `require('irilint')` passes the module name as `...`; `:luafile` passes
-- nothing, and then the file sets itself up with the defaults.
if select("#", ...) == 0 then
  package.loaded["irilint"] = M
  M.setup()
end

return M
