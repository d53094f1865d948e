-- Drives Neovim (headless) through irilint's diagnostics and quick fix.
-- Run by test_neovim.py after editors/neovim/irilint.lua has been :luafile'd.
--
-- Environment: IRILINT_TEST_FILE (document to open), IRILINT_TEST_OUT (JSON
-- result), IRILINT_TEST_WAIT_MS (bound of each wait).
local common = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "nvim_common.lua")
local out_path = assert(os.getenv("IRILINT_TEST_OUT"), "IRILINT_TEST_OUT")
local file = assert(os.getenv("IRILINT_TEST_FILE"), "IRILINT_TEST_FILE")
local wait_ms = tonumber(os.getenv("IRILINT_TEST_WAIT_MS") or "30000")
local request_ms = tonumber(os.getenv("IRILINT_TEST_REQUEST_MS") or "15000")

local result = { steps = {}, nvim_version = common.version() }

local function step(name)
  table.insert(result.steps, name)
end

local function write_result()
  common.write_json(out_path, result)
end

local simplify, irilint_diags, find = common.simplify, common.irilint_diags, common.find

local function main()
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[bufnr].filetype
  step("opened")

  local attached = vim.wait(wait_ms, function()
    local c = require("irilint").client(bufnr)
    return c ~= nil and c.initialized
  end, 50)
  local client = require("irilint").client(bufnr)
  result.attached = client ~= nil
  if not attached then
    result.error = "the irilint client did not attach and initialize within " .. wait_ms .. " ms"
    return
  end
  result.client_name = client.name
  result.client_cmd = client.config.cmd
  result.offset_encoding = client.offset_encoding
  result.language_id = client.config.get_language_id(bufnr, vim.bo[bufnr].filetype)
  step("attached")

  local got = vim.wait(wait_ms, function()
    local diags = irilint_diags(bufnr)
    return find(diags, "IRI401") ~= nil and find(diags, "IRI101") ~= nil
  end, 50)
  result.diagnostics = simplify(irilint_diags(bufnr))
  if not got then
    result.error = "IRI401 and IRI101 diagnostics did not both arrive within " .. wait_ms .. " ms"
    return
  end
  step("diagnostics")

  -- What a user does: cursor on the diagnostic, then code actions for the
  -- cursor position with the line's diagnostics as context (the params that
  -- vim.lsp.buf.code_action() builds in Neovim 0.7).
  local percent = find(irilint_diags(bufnr), "IRI401")
  vim.api.nvim_win_set_cursor(0, { percent.lnum + 1, percent.col })
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bufnr) }
  result.code_action_params = params
  local responses, err = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, request_ms)
  if responses == nil then
    result.error = "textDocument/codeAction failed: " .. tostring(err)
    return
  end
  local actions = {}
  for _, response in pairs(responses) do
    if response.error then
      result.code_action_error = response.error
    end
    for _, action in ipairs(response.result or {}) do
      table.insert(actions, action)
    end
  end
  result.actions = {}
  for _, a in ipairs(actions) do
    table.insert(result.actions, { title = a.title, kind = a.kind, isPreferred = a.isPreferred,
      has_edit = a.edit ~= nil, has_command = a.command ~= nil })
  end
  step("code actions")

  local chosen
  for _, a in ipairs(actions) do
    if a.isPreferred and a.edit ~= nil and a.title == "Encode '%' as '%25'" then
      chosen = a
    end
  end
  if chosen == nil then
    result.error = "no preferred quick fix \"Encode '%' as '%25'\" with an edit"
    return
  end
  result.chosen = chosen.title
  result.chosen_edit = chosen.edit
  vim.lsp.util.apply_workspace_edit(chosen.edit, "utf-16")
  result.line_after_fix = vim.api.nvim_buf_get_lines(bufnr, percent.lnum, percent.lnum + 1, false)[1]
  step("applied")

  -- The buffer change goes to the server as didChange (debounced); the
  -- percent diagnostic must go, the bidi one must stay.
  local cleared = vim.wait(wait_ms, function()
    local diags = irilint_diags(bufnr)
    return find(diags, "IRI401") == nil and find(diags, "IRI101") ~= nil
  end, 50)
  result.diagnostics_after_fix = simplify(irilint_diags(bufnr))
  if not cleared then
    result.error = "after the fix, IRI401 did not go away (with IRI101 still there) within " .. wait_ms .. " ms"
    return
  end
  step("cleared")
  result.ok = true
end

common.finish(main, result, write_result)
