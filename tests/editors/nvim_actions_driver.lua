-- Drives Neovim 0.7 (headless) through every kind of irilint code action.
-- Run by test_neovim_actions.py after editors/neovim/irilint.lua has been
-- :luafile'd; the test decides what each case expects, this driver only
-- does what a user does and records what Neovim saw.
--
-- Environment:
--   IRILINT_TEST_CASES       JSON file: a list of cases (see run_case)
--   IRILINT_TEST_OUT         JSON result, rewritten after every case so that
--                            a timeout still shows how far it got
--   IRILINT_TEST_WAIT_MS     bound of each vim.wait
--   IRILINT_TEST_REQUEST_MS  bound of each synchronous request
--
-- A case: { id, path, line (0-based), col (0-based byte column of the
-- cursor), only (list of kinds, optional), title (action to apply), via
-- ("code_action": vim.lsp.buf.code_action() picking the title in
-- vim.ui.select, which applies action.edit with
-- vim.lsp.util.apply_workspace_edit(edit, client.offset_encoding) or runs
-- action.command; "command": workspace/executeCommand irilint.applyEdit with
-- the action's edit, the server answering with workspace/applyEdit, which
-- Neovim's own handler applies), before_codes (codes that must be on the
-- line first), after_codes (exactly the codes on the line afterwards),
-- after_only (the kinds asked for again afterwards; default: only) }
local common = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "nvim_common.lua")
local out_path = assert(os.getenv("IRILINT_TEST_OUT"), "IRILINT_TEST_OUT")
local cases_path = assert(os.getenv("IRILINT_TEST_CASES"), "IRILINT_TEST_CASES")
local wait_ms = tonumber(os.getenv("IRILINT_TEST_WAIT_MS") or "15000")
local request_ms = tonumber(os.getenv("IRILINT_TEST_REQUEST_MS") or "15000")

local irilint = require("irilint")

-- Edited buffers stay loaded (and attached) while the next case opens.
vim.o.hidden = true

local result = {
  nvim_version = common.version(),
  cases = {},
}

local function write_result()
  common.write_json(out_path, result)
end

local function read_cases()
  local f = assert(io.open(cases_path, "r"))
  local text = f:read("*a")
  f:close()
  return vim.fn.json_decode(text)
end

-- Diagnostics ---------------------------------------------------------------

local irilint_diags = common.irilint_diags

local function line_diags(bufnr, lnum)
  local out = {}
  for _, d in ipairs(irilint_diags(bufnr)) do
    if d.lnum == lnum then
      table.insert(out, d)
    end
  end
  return out
end

-- The distinct codes, sorted.
local function codes_of(diags)
  local seen, out = {}, {}
  for _, d in ipairs(diags) do
    local c = tostring(d.code)
    if not seen[c] then
      seen[c] = true
      table.insert(out, c)
    end
  end
  table.sort(out)
  return out
end

local function has_all(codes, wanted)
  local set = {}
  for _, c in ipairs(codes) do
    set[c] = true
  end
  for _, w in ipairs(wanted or {}) do
    if not set[w] then
      return false
    end
  end
  return true
end

local function same_set(codes, wanted)
  local w = {}
  for _, c in ipairs(wanted or {}) do
    w[c] = true
  end
  local n = 0
  for _ in pairs(w) do
    n = n + 1
  end
  return #codes == n and has_all(codes, wanted)
end

-- What the server put in the diagnostic's data: the fixes (and whether safe).
local function fixes_of(d)
  local lsp = type(d.user_data) == "table" and d.user_data.lsp or nil
  local data = type(lsp) == "table" and lsp.data or nil
  local out = {}
  if type(data) == "table" and type(data.fixes) == "table" then
    for _, fx in ipairs(data.fixes) do
      if type(fx) == "table" then
        table.insert(out, { title = fx.title, safe = fx.safe })
      end
    end
  end
  return out
end

local function simplify(diags)
  return common.simplify(diags, function(d) return { fixes = fixes_of(d) } end)
end

-- Code actions --------------------------------------------------------------

local function flatten_edit(edit)
  local out = {}
  if type(edit) ~= "table" then
    return out
  end
  local function add(uri, version, edits, shape)
    for _, e in ipairs(edits or {}) do
      table.insert(out, {
        shape = shape, uri = uri, version = version,
        start = { e.range.start.line, e.range.start.character },
        ["end"] = { e.range["end"].line, e.range["end"].character },
        new_text = e.newText,
      })
    end
  end
  if type(edit.documentChanges) == "table" then
    for _, dc in ipairs(edit.documentChanges) do
      if type(dc) == "table" and dc.textDocument then
        add(dc.textDocument.uri, dc.textDocument.version, dc.edits, "documentChanges")
      end
    end
  end
  if type(edit.changes) == "table" then
    for uri, edits in pairs(edit.changes) do
      add(uri, nil, edits, "changes")
    end
  end
  return out
end

local function summarize(action)
  local command = action.command
  local command_name = type(command) == "table" and command.command or command
  local diag_codes = {}
  for _, d in ipairs(action.diagnostics or {}) do
    table.insert(diag_codes, tostring(d.code))
  end
  return {
    title = action.title,
    kind = action.kind,
    isPreferred = action.isPreferred == true,
    has_edit = action.edit ~= nil,
    has_command = command ~= nil,
    command = command_name,
    diagnostics = diag_codes,
    edits = flatten_edit(action.edit),
  }
end

local function summarize_all(actions)
  local out = {}
  for _, a in ipairs(actions) do
    table.insert(out, summarize(a))
  end
  return out
end

-- textDocument/codeAction for the cursor, with the context that
-- vim.lsp.buf.code_action() builds in Neovim 0.7 (the line's diagnostics).
local function request_actions(bufnr, only)
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bufnr), only = only }
  local responses, err = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, request_ms)
  if responses == nil then
    return nil, params, "textDocument/codeAction gave no response within " .. request_ms ..
      " ms: " .. tostring(err)
  end
  local actions = {}
  for _, response in pairs(responses) do
    if response.error then
      return nil, params, "textDocument/codeAction answered with an error: " .. vim.inspect(response.error)
    end
    for _, a in ipairs(response.result or {}) do
      table.insert(actions, a)
    end
  end
  return actions, params
end

local function titles(actions)
  local out = {}
  for _, a in ipairs(actions) do
    table.insert(out, a.title)
  end
  return out
end

-- The case ------------------------------------------------------------------

local function buffer_lines(bufnr)
  return vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
end

local function set_cursor(bufnr, line, col)
  local text = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1] or ""
  vim.api.nvim_win_set_cursor(0, { line + 1, math.max(0, math.min(col, #text - 1)) })
end

-- Applies the action titled spec.title the way a Neovim 0.7 user does:
-- vim.lsp.buf.code_action() asks the server again and offers the actions in
-- vim.ui.select; picking one runs Neovim's own apply_action (edit, then
-- command).
local function apply_via_code_action(r, bufnr, spec)
  local picked = { called = false }
  local orig_select = vim.ui.select
  vim.ui.select = function(items, opts, on_choice)
    picked.called = true
    picked.kind = opts and opts.kind
    picked.presented = {}
    local choice
    for _, item in ipairs(items) do
      -- Neovim 0.7 offers { client_id, action } tuples.
      local action = item[2]
      table.insert(picked.presented, action.title)
      if choice == nil and action.title == spec.title then
        choice = item
      end
    end
    picked.chose = choice ~= nil
    on_choice(choice)
  end
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  local ok, err = pcall(vim.lsp.buf.code_action, { only = spec.only })
  local changed = ok and vim.wait(wait_ms, function()
    return picked.called and (not picked.chose or vim.api.nvim_buf_get_changedtick(bufnr) ~= tick)
  end, 20)
  vim.ui.select = orig_select
  r.ui_select = picked
  if not ok then
    return "vim.lsp.buf.code_action() raised: " .. tostring(err)
  end
  if not picked.called then
    return "vim.lsp.buf.code_action() offered nothing in vim.ui.select within " .. wait_ms .. " ms"
  end
  if not picked.chose then
    return "vim.lsp.buf.code_action() did not offer '" .. spec.title .. "' (offered: " ..
      table.concat(picked.presented, " | ") .. ")"
  end
  if not changed or vim.api.nvim_buf_get_changedtick(bufnr) == tick then
    return "picking '" .. spec.title .. "' did not change the buffer within " .. wait_ms .. " ms"
  end
  return nil
end

-- The command path: workspace/executeCommand irilint.applyEdit with the
-- action's edit (what the server hands clients without code action literals);
-- the server sends workspace/applyEdit and Neovim's handler applies it.
local function apply_via_command(r, bufnr, client, chosen)
  local caps = client.server_capabilities or {}
  r.execute_command_provider = caps.executeCommandProvider
  local params = { command = "irilint.applyEdit", arguments = { chosen.edit } }
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  local answered = false
  local ok, err = pcall(client.request, "workspace/executeCommand", params, function(e, res)
    answered = true
    r.execute_command_response = { error = e, result = res }
  end, bufnr)
  if not ok then
    return "client.request('workspace/executeCommand') raised: " .. tostring(err)
  end
  local done = vim.wait(wait_ms, function()
    return answered and vim.api.nvim_buf_get_changedtick(bufnr) ~= tick
  end, 20)
  if not done then
    if not answered then
      return "workspace/executeCommand irilint.applyEdit got no answer within " .. wait_ms .. " ms"
    end
    return "workspace/executeCommand irilint.applyEdit answered " ..
      vim.inspect(r.execute_command_response) .. " but the buffer did not change"
  end
  return nil
end

local function run_case(spec)
  local r = { id = spec.id }
  table.insert(result.cases, r)

  vim.cmd("edit " .. vim.fn.fnameescape(spec.path))
  local bufnr = vim.api.nvim_get_current_buf()
  r.filetype = vim.bo[bufnr].filetype
  r.buffer_before = buffer_lines(bufnr)

  local attached = vim.wait(wait_ms, function()
    local c = irilint.client(bufnr)
    return c ~= nil and c.initialized
  end, 20)
  local client = irilint.client(bufnr)
  if not attached or client == nil then
    r.error = "the irilint client did not attach and initialize within " .. wait_ms .. " ms"
    return
  end
  r.client_cmd = client.config.cmd
  r.offset_encoding = client.offset_encoding
  r.language_id = client.config.get_language_id(bufnr, r.filetype)
  local caps = client.server_capabilities or {}
  if type(caps.codeActionProvider) == "table" then
    r.code_action_kinds = caps.codeActionProvider.codeActionKinds
  end

  local ready = vim.wait(wait_ms, function()
    return has_all(codes_of(line_diags(bufnr, spec.line)), spec.before_codes)
  end, 20)
  r.diagnostics_before = simplify(line_diags(bufnr, spec.line))
  if not ready then
    r.error = "the diagnostics " .. table.concat(spec.before_codes or {}, ", ") ..
      " did not all arrive on line " .. spec.line .. " within " .. wait_ms .. " ms"
    return
  end

  -- What the server offers at the cursor (a synchronous request, as
  -- vim.lsp.buf.code_action() would send it).
  set_cursor(bufnr, spec.line, spec.col)
  r.cursor = vim.api.nvim_win_get_cursor(0)
  local actions, params, err = request_actions(bufnr, spec.only)
  r.request_range = params.range
  r.request_context_codes = codes_of(params.context.diagnostics or {})
  if actions == nil then
    r.error = err
    return
  end
  r.actions = summarize_all(actions)
  local chosen
  for _, a in ipairs(actions) do
    if a.title == spec.title then
      chosen = a
      break
    end
  end
  if chosen == nil then
    r.error = "no code action titled '" .. spec.title .. "' (offered: " ..
      table.concat(titles(actions), " | ") .. ")"
    return
  end
  r.chosen = summarize(chosen)

  if spec.via == "command" then
    r.error = apply_via_command(r, bufnr, client, chosen)
  else
    r.error = apply_via_code_action(r, bufnr, spec)
  end
  r.buffer_after = buffer_lines(bufnr)
  r.line_after = r.buffer_after[spec.line + 1]
  if r.error then
    return
  end

  -- didChange (debounced) -> the server lints again -> publishDiagnostics.
  local settled = vim.wait(wait_ms, function()
    return same_set(codes_of(line_diags(bufnr, spec.line)), spec.after_codes)
  end, 20)
  r.diagnostics_after = simplify(line_diags(bufnr, spec.line))
  r.buffer_diagnostics_after = simplify(irilint_diags(bufnr))
  if not settled then
    r.error = "after the action, the codes on line " .. spec.line .. " did not become [" ..
      table.concat(spec.after_codes or {}, ", ") .. "] within " .. wait_ms .. " ms (they are [" ..
      table.concat(codes_of(line_diags(bufnr, spec.line)), ", ") .. "])"
    return
  end

  -- What is offered now at the same place.
  set_cursor(bufnr, spec.line, spec.col)
  local again, _, err2 = request_actions(bufnr, spec.after_only or spec.only)
  if again == nil then
    r.error = "after the action: " .. err2
    return
  end
  r.actions_after = summarize_all(again)
  r.ok = true
end

local function main()
  local cases = read_cases()
  for _, spec in ipairs(cases) do
    local prev = irilint.client(0)
    if prev ~= nil and prev.is_stopped() then
      table.insert(result.cases, { id = spec.id, error = "the irilint server had stopped before this case" })
    else
      local ok, err = xpcall(run_case, debug.traceback, spec)
      if not ok then
        result.cases[#result.cases].error = "driver error: " .. tostring(err)
      end
    end
    write_result()
  end
  result.finished = true
end

common.finish(main, result, write_result)
