-- Headless Neovim (0.7+) as an independent LSP client of `dtypeguard lsp`.
-- Usage: DTYPEGUARD_PY=/path/python nvim --headless --clean -c 'luafile tests/nvim/lsp_check.lua' FILE.py
-- Prints DIAG/HOVER/ACTION/APPLIED lines and OK; on failure prints FAIL: ... and exits 1.
local PY = os.getenv('DTYPEGUARD_PY') or 'python3'
local function out(s) io.stdout:write(s .. '\n') end
local function fail(msg) out('FAIL: ' .. msg); vim.cmd('cquit! 1') end

local ok, err = pcall(function()
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'python'
  local root = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':p:h')
  local client_id = vim.lsp.start_client({
    name = 'dtypeguard',
    cmd = { PY, '-m', 'dtypeguard', 'lsp' },
    root_dir = root,
    init_options = { settings = { debounceMs = 0 } },
  })
  if not client_id then return fail('start_client returned nil') end
  vim.lsp.buf_attach_client(bufnr, client_id)

  local got = vim.wait(20000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
  if not got then return fail('no diagnostics within 20s') end
  local target
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    out(string.format('DIAG %d:%d-%d:%d sev=%d source=%s code=%s', d.lnum, d.col, d.end_lnum, d.end_col,
      d.severity, tostring(d.source), tostring(d.user_data and d.user_data.lsp and d.user_data.lsp.code)))
    if d.user_data and d.user_data.lsp and d.user_data.lsp.code == 'DG004' then target = d end
  end
  if not target then return fail('no DG004 diagnostic') end

  local params = vim.lsp.util.make_text_document_params(bufnr)
  local hres = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover',
    { textDocument = params, position = { line = target.lnum, character = target.col } }, 10000) or {}
  local hovered = false
  for _, r in pairs(hres) do
    if r.err then return fail('hover error ' .. vim.inspect(r.err)) end
    local c = r.result and r.result.contents
    local text = type(c) == 'table' and (c.value or vim.inspect(c)) or tostring(c)
    if text:find('DG004', 1, true) then hovered = true end
    out('HOVER ' .. text:gsub('\n', ' '):sub(1, 160))
  end
  if not hovered then return fail('hover does not mention DG004') end

  -- the LSP form of the line's diagnostics (user_data.lsp lacks range/message in 0.7)
  local line_diags = vim.lsp.diagnostic.get_line_diagnostics(bufnr, target.lnum)
  local ca = {
    textDocument = params,
    range = { start = { line = target.lnum, character = target.col },
              ['end'] = { line = target.end_lnum, character = target.end_col } },
    context = { diagnostics = line_diags },
  }
  local cres = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', ca, 20000) or {}
  local preferred
  local titles = {}
  for _, r in pairs(cres) do
    if r.err then return fail('codeAction error ' .. vim.inspect(r.err)) end
    for _, a in ipairs(r.result or {}) do
      out('ACTION ' .. a.title .. ' kind=' .. tostring(a.kind) .. ' preferred=' .. tostring(a.isPreferred))
      titles[a.title] = true
      if a.isPreferred and not preferred then preferred = a end
    end
  end
  if not titles['Ignore DG004 on this line'] then return fail('no ignore action') end
  if not preferred then return fail('no preferred quick fix') end
  if not preferred.edit then
    local rres = vim.lsp.buf_request_sync(bufnr, 'codeAction/resolve', preferred, 20000) or {}
    for _, r in pairs(rres) do
      if r.err then return fail('resolve error ' .. vim.inspect(r.err)) end
      preferred = r.result
    end
  end
  if not (preferred and preferred.edit) then return fail('the preferred fix has no edit') end
  local client = vim.lsp.get_client_by_id(client_id)
  vim.lsp.util.apply_workspace_edit(preferred.edit, client.offset_encoding or 'utf-16')
  local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  if not text:find('torch.from_numpy(X).float()', 1, true) then return fail('the fix did not apply') end
  out('APPLIED ' .. preferred.title)

  -- the edit reaches the server as didChange: DG004 disappears
  local gone = vim.wait(20000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.user_data and d.user_data.lsp and d.user_data.lsp.code == 'DG004' then return false end
    end
    return true
  end, 50)
  if not gone then return fail('DG004 still reported after the fix') end
  out('FIXED')

  -- type a new hazard one key at a time (each an incremental didChange) above the loss line
  local at
  for i, l in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if l:find('loss = criterion(preds, targets)', 1, true) then at = i - 1 end
  end
  if not at then return fail('no loss line') end
  vim.api.nvim_buf_set_lines(bufnr, at, at, false, { '    ' })
  local typed = 'extra = model(torch.zeros(4, 4, dtype=torch.float64))'
  for i = 1, #typed do
    vim.api.nvim_buf_set_text(bufnr, at, 3 + i, at, 3 + i, { typed:sub(i, i) })
    vim.wait(5)
  end
  local typed_hazard = vim.wait(20000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.lnum == at and d.user_data and d.user_data.lsp and d.user_data.lsp.code == 'DG004' then return true end
    end
    return false
  end, 50)
  if not typed_hazard then return fail('no DG004 on the typed line') end
  out(string.format('TYPED DG004 at line %d', at))

  vim.lsp.stop_client(client_id)
  vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
end)
if not ok then out('FAIL: ' .. tostring(err)); vim.cmd('cquit! 1') end
out('OK')
vim.cmd('qall!')
