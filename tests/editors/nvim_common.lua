-- What the Neovim test drivers share: the result file, irilint's
-- diagnostics as plain tables, and the end of a run (stop the client, write
-- the result, quit).  A driver loads it with
--   local common = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "nvim_common.lua")
local M = {}

function M.version()
  local v = vim.version()
  return tostring(v.major) .. "." .. tostring(v.minor) .. "." .. tostring(v.patch)
end

-- Writes `result` as JSON to `path`; a result that cannot be encoded still
-- leaves a file that says why.
function M.write_json(path, result)
  local ok, text = pcall(vim.fn.json_encode, result)
  if not ok then
    text = vim.fn.json_encode({ error = "could not encode the result: " .. tostring(text) })
  end
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

-- The diagnostics irilint's client put on `bufnr`.
function M.irilint_diags(bufnr)
  local client = require("irilint").client(bufnr)
  if client == nil then
    return {}
  end
  return vim.diagnostic.get(bufnr, { namespace = vim.lsp.diagnostic.get_namespace(client.id) })
end

function M.find(diags, code)
  for _, d in ipairs(diags) do
    if d.code == code then
      return d
    end
  end
  return nil
end

-- Diagnostics as JSON-able tables; `extra(d)`, when given, adds fields.
function M.simplify(diags, extra)
  local out = {}
  for _, d in ipairs(diags) do
    local row = {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      code = d.code, source = d.source, message = d.message, severity = d.severity,
    }
    if extra then
      for k, v in pairs(extra(d)) do
        row[k] = v
      end
    end
    table.insert(out, row)
  end
  return out
end

-- Runs `main` (an error is recorded in result.error with its traceback),
-- stops the irilint client of `bufnr()`, writes the result and quits.
function M.finish(main, result, write_result, bufnr)
  local ok, err = xpcall(main, debug.traceback)
  if not ok then
    result.error = "driver error: " .. tostring(err)
  end
  pcall(function()
    local c = require("irilint").client(bufnr and bufnr() or 0)
    if c then
      c.stop()
      vim.wait(2000, function() return c.is_stopped() end, 50)
    end
  end)
  write_result()
  vim.cmd("qall!")
end

return M
