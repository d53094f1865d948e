-- Drives Neovim (headless) through irilint's confusable collisions across
-- documents (IRI205), as a person would: open two files, read the
-- diagnostics, fix the look-alike letter with normal-mode keys, then type a
-- line whose host collides with a file of the workspace that is not open.
-- Run by test_neovim_collisions.py after editors/neovim/irilint.lua has been
-- :luafile'd.
--
-- Environment: IRILINT_TEST_DIR (the workspace folder, holding a.md, b.md and
-- c.md), IRILINT_TEST_OUT (JSON result), IRILINT_TEST_WAIT_MS (bound of each
-- wait), IRILINT_TEST_NEW_LINE (the line typed into b.md in the last step).
local common = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "nvim_common.lua")
local out_path = assert(os.getenv("IRILINT_TEST_OUT"), "IRILINT_TEST_OUT")
local dir = assert(os.getenv("IRILINT_TEST_DIR"), "IRILINT_TEST_DIR")
local new_line = assert(os.getenv("IRILINT_TEST_NEW_LINE"), "IRILINT_TEST_NEW_LINE")
local wait_ms = tonumber(os.getenv("IRILINT_TEST_WAIT_MS") or "30000")

local CODE = "IRI205"
-- CYRILLIC SMALL LETTER A in UTF-8: the look-alike letter of a.md's host.
local CYRILLIC_A = "\208\176"

local result = { steps = {}, nvim_version = common.version() }

local function step(name)
  table.insert(result.steps, name)
end

local function write_result()
  common.write_json(out_path, result)
end

local irilint_diags = common.irilint_diags

local function collisions(bufnr)
  local found = {}
  for _, d in ipairs(irilint_diags(bufnr)) do
    if d.code == CODE then
      table.insert(found, d)
    end
  end
  return found
end

local function simplify(diags)
  return common.simplify(diags, function(d)
    local lsp = (d.user_data or {}).lsp or {}
    return { related = lsp.relatedInformation }
  end)
end

-- What each buffer shows now, kept under result[name] (every irilint
-- diagnostic, so a failure shows all the editor had).
local buffers = {}
local function snapshot(name)
  local shot = {}
  for key, bufnr in pairs(buffers) do
    shot[key] = simplify(irilint_diags(bufnr))
  end
  result[name] = shot
end

-- Waits up to wait_ms for cond(); on a timeout records what the buffers
-- showed and why, and returns false.
local function wait_for(what, cond, name)
  local ok = vim.wait(wait_ms, cond, 50)
  snapshot(name)
  if not ok then
    result.error = what .. " did not happen within " .. wait_ms .. " ms"
  end
  return ok
end

local function edit(file)
  vim.cmd("edit " .. vim.fn.fnameescape(dir .. "/" .. file))
  return vim.api.nvim_get_current_buf()
end

local function main()
  -- Switching away from a changed buffer keeps it (the default in Neovim,
  -- set here so the driver does not depend on it).
  vim.o.hidden = true
  buffers.a = edit("a.md")
  buffers.b = edit("b.md")
  result.buffer_names = { a = vim.api.nvim_buf_get_name(buffers.a), b = vim.api.nvim_buf_get_name(buffers.b) }
  result.listed_buffers = #vim.fn.getbufinfo({ buflisted = 1 })
  step("opened")

  local attached = vim.wait(wait_ms, function()
    local ca, cb = require("irilint").client(buffers.a), require("irilint").client(buffers.b)
    return ca ~= nil and cb ~= nil and ca.initialized
  end, 50)
  local ca, cb = require("irilint").client(buffers.a), require("irilint").client(buffers.b)
  if not attached then
    result.error = "the irilint client did not attach to both buffers and initialize within "
      .. wait_ms .. " ms"
    return
  end
  result.one_client = ca.id == cb.id
  result.client_cmd = ca.config.cmd
  result.workspace_folders = ca.workspace_folders or ca.config.workspace_folders
  step("attached")

  -- 1. Both buffers show the collision.
  if not wait_for("an IRI205 diagnostic on both a.md and b.md", function()
    return #collisions(buffers.a) > 0 and #collisions(buffers.b) > 0
  end, "opened_diagnostics") then
    return
  end
  step("collision shown")

  -- 2. In a.md, put the cursor on the Cyrillic letter and replace it with a
  -- Latin one (`ra`); the client sends the change as didChange.
  vim.cmd("buffer " .. buffers.a)
  local lines = vim.api.nvim_buf_get_lines(buffers.a, 0, -1, false)
  local at
  for i, line in ipairs(lines) do
    local col = line:find(CYRILLIC_A, 1, true)
    if col then
      at = { i, col - 1 }
      break
    end
  end
  if at == nil then
    result.error = "a.md's buffer holds no Cyrillic a"
    return
  end
  vim.api.nvim_win_set_cursor(0, at)
  vim.cmd("normal! ra")
  result.a_line_after_edit = vim.api.nvim_buf_get_lines(buffers.a, at[1] - 1, at[1], false)[1]
  result.a_modified = vim.bo[buffers.a].modified
  step("edited a.md")
  if not wait_for("IRI205 going from both a.md and b.md after the edit of a.md", function()
    return #collisions(buffers.a) == 0 and #collisions(buffers.b) == 0
  end, "edited_diagnostics") then
    return
  end
  step("collision gone")

  -- 3. In b.md, type a line at the end whose host collides only with c.md's
  -- (which no buffer holds).
  vim.cmd("buffer " .. buffers.b)
  vim.cmd("normal! Go" .. new_line)
  result.b_lines_after_typing = vim.api.nvim_buf_get_lines(buffers.b, 0, -1, false)
  result.c_loaded = vim.fn.bufloaded(dir .. "/c.md") == 1
  step("typed into b.md")
  if not wait_for("an IRI205 diagnostic on b.md naming c.md", function()
    for _, d in ipairs(collisions(buffers.b)) do
      if d.message:find("c.md", 1, true) then
        return true
      end
    end
    return false
  end, "typed_diagnostics") then
    return
  end
  step("collision with c.md shown")
  result.ok = true
end

common.finish(main, result, write_result, function() return buffers.a or 0 end)
