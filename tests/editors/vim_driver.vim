" Drives Vim + ALE (headless, -es) through irilint's diagnostics and quick fix.
" Sourced by test_vim.py after a vimrc that loads ALE and
" editors/vim/irilint.vim.  Environment: IRILINT_TEST_FILE, IRILINT_TEST_OUT,
" IRILINT_TEST_WAIT_MS.  Vim runs timers and job callbacks during :sleep,
" which is how every wait below lets ALE work; each wait is bounded.
let s:out = $IRILINT_TEST_OUT
let s:file = $IRILINT_TEST_FILE
let s:wait_ms = str2nr(empty($IRILINT_TEST_WAIT_MS) ? '30000' : $IRILINT_TEST_WAIT_MS)
let s:result = {'steps': [], 'vim_version': v:version}

function! s:Step(name) abort
    call add(s:result.steps, a:name)
endfunction

function! s:Write() abort
    call writefile([json_encode(s:result)], s:out, 'b')
endfunction

function! s:Wait(ms, Cond) abort
    let l:start = reltime()

    while 1
        if a:Cond()
            return 1
        endif

        if reltimefloat(reltime(l:start)) * 1000 >= a:ms
            return 0
        endif

        sleep 20m
    endwhile
endfunction

function! s:Diags(buffer) abort
    let l:out = []

    for l:item in ale#engine#GetLoclist(a:buffer)
        if get(l:item, 'linter_name', '') is# 'irilint'
            call add(l:out, {
            \   'lnum': l:item.lnum,
            \   'col': l:item.col,
            \   'end_lnum': get(l:item, 'end_lnum', v:null),
            \   'end_col': get(l:item, 'end_col', v:null),
            \   'code': get(l:item, 'code', v:null),
            \   'text': l:item.text,
            \   'detail': get(l:item, 'detail', v:null),
            \   'type': l:item.type,
            \})
        endif
    endfor

    return l:out
endfunction

function! s:Find(buffer, code) abort
    for l:d in s:Diags(a:buffer)
        if l:d.code is# a:code
            return l:d
        endif
    endfor

    return {}
endfunction

let s:menu = {}

" ALE's code action menu callback (what its right-click "Refactor..."
" menu is built from): data for the request, and [['lsp', CodeAction], ...].
function! s:OnActions(data, items) abort
    let s:menu = {'data': a:data, 'items': a:items}
endfunction

function! s:Main() abort
    execute 'edit ' . fnameescape(s:file)
    let l:buffer = bufnr('')
    let s:result.filetype = &filetype
    let s:result.ale_linter_file = globpath(&runtimepath, 'ale_linters/' . &filetype . '/irilint.vim')
    let s:result.linters = map(ale#linter#Get(&filetype), 'v:val.name')
    call s:Step('opened')

    let l:got = s:Wait(s:wait_ms, {-> !empty(s:Find(l:buffer, 'IRI401')) && !empty(s:Find(l:buffer, 'IRI101'))})
    let s:result.diagnostics = s:Diags(l:buffer)

    if !l:got
        let s:result.error = 'IRI401 and IRI101 did not both reach ALE within ' . s:wait_ms . ' ms'

        return
    endif

    call s:Step('diagnostics')

    " Select the character under the IRI401 diagnostic, as with v then
    " :'<,'>ALECodeAction, but with ALE's menu callback instead of its
    " numbered prompt.
    let l:percent = s:Find(l:buffer, 'IRI401')
    call setpos("'<", [l:buffer, l:percent.lnum, l:percent.col, 0])
    call setpos("'>", [l:buffer, l:percent.lnum, l:percent.col, 0])
    call cursor(l:percent.lnum, l:percent.col)
    call ale#codefix#Execute(1, function('s:OnActions'))

    if !s:Wait(s:wait_ms, {-> !empty(s:menu)})
        let s:result.error = 'no answer to textDocument/codeAction within ' . s:wait_ms . ' ms'

        return
    endif

    let s:result.actions = map(copy(s:menu.items), {_, v -> {
    \   'type': v[0],
    \   'title': get(v[1], 'title', ''),
    \   'kind': get(v[1], 'kind', v:null),
    \   'isPreferred': get(v[1], 'isPreferred', v:false) is v:true,
    \   'has_edit': has_key(v[1], 'edit'),
    \}})
    call s:Step('code actions')

    let l:chosen = {}

    for [l:type, l:item] in s:menu.items
        if l:type is# 'lsp' && get(l:item, 'isPreferred', v:false) is v:true
        \ && has_key(l:item, 'edit') && l:item.title is# "Encode '%' as '%25'"
            let l:chosen = l:item
        endif
    endfor

    if empty(l:chosen)
        let s:result.error = "no preferred quick fix \"Encode '%' as '%25'\" with an edit"

        return
    endif

    let s:result.chosen = l:chosen.title
    let s:result.chosen_edit = l:chosen.edit
    " What ALE runs when that menu entry is picked.
    call ale#codefix#ApplyLSPCodeAction(s:menu.data, l:chosen)
    let s:result.line_after_fix = getline(l:percent.lnum)
    let s:result.modified = &modified
    call s:Step('applied')

    " ALE 3.3 applies the edit without telling the server (HandleCodeAction
    " passes no connection to ApplyChanges): the TextChanged event that Vim's
    " main loop fires after the change makes ALE lint again, which sends
    " didChange.  -es has no main loop, so fire it as the loop would.
    doautocmd <nomodeline> TextChanged
    let l:cleared = s:Wait(s:wait_ms, {-> empty(s:Find(l:buffer, 'IRI401')) && !empty(s:Find(l:buffer, 'IRI101'))})
    let s:result.diagnostics_after_fix = s:Diags(l:buffer)

    if !l:cleared
        let s:result.error = 'after the fix, IRI401 did not go away (with IRI101 still there) within ' . s:wait_ms . ' ms'

        return
    endif

    call s:Step('cleared')
    let s:result.ok = v:true
endfunction

try
    call s:Main()
catch
    let s:result.error = 'driver error: ' . v:exception . ' at ' . v:throwpoint
endtry

if !get(s:result, 'ok', v:false)
    silent! let s:result.ale_history = ale#history#Get(bufnr(''))
    silent! let s:result.messages = execute('messages')
endif

call s:Write()
call ale#lsp#StopAll()
qall!
