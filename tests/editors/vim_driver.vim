" Drives Vim + ALE (interactive, on a pseudo-terminal) through irilint's
" diagnostics and two quick fixes.  Sourced by test_vim.py (-S) after a vimrc
" that loads ALE and editors/vim/irilint.vim.  Environment: IRILINT_TEST_FILE,
" IRILINT_TEST_OUT, IRILINT_TEST_WAIT_MS.
"
" Vim's main loop runs (TextChanged, ALE's timers and jobs): a repeating
" timer checks the current step's condition and, once it holds, runs its
" action, which types keys as a user would: :ALECodeAction, then, at ALE's
" numbered "Code Fixes" prompt, the number shown on the screen beside the
" wanted title, and Enter.  Each step is bounded by IRILINT_TEST_WAIT_MS.
let s:out = $IRILINT_TEST_OUT
let s:file = $IRILINT_TEST_FILE
let s:wait_ms = str2nr(empty($IRILINT_TEST_WAIT_MS) ? '30000' : $IRILINT_TEST_WAIT_MS)
let s:result = {'steps': [], 'vim_version': v:version, 'menus': []}
let s:buffer = -1
let s:want = ''        " the title to pick at the next prompt
let s:line = 0         " 1-based line of the diagnostics
let s:publishes = 0    " ALE's finished irilint runs (ALELintPost)
let s:mark = 0

augroup irilint_test
    autocmd!
    " Only counts: a step waits for ALE's answer to an edit, not for stale results.
    autocmd User ALELintPost let s:publishes += 1
augroup END

function! s:Diags() abort
    let l:out = []

    for l:item in ale#engine#GetLoclist(s:buffer)
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

function! s:Find(code) abort
    for l:d in s:Diags()
        if l:d.code is# a:code
            return l:d
        endif
    endfor

    return {}
endfunction

" The screen's rows, as the user reads them.
function! s:Screen() abort
    let l:rows = []

    for l:row in range(1, &lines)
        let l:text = ''

        for l:col in range(1, &columns)
            let l:text .= screenstring(l:row, l:col)
        endfor

        call add(l:rows, substitute(l:text, '\s\+$', '', ''))
    endfor

    return l:rows
endfunction

" At ALE's prompt: find "N) <title>" on the screen and type N, Enter.
function! s:AnswerPrompt() abort
    let l:rows = s:Screen()
    let l:menu = filter(copy(l:rows), {_, v -> v =~# '^\d\+) '})
    let l:number = ''

    for l:entry in l:menu
        let l:m = matchlist(l:entry, '^\(\d\+\)) \(.*\)$')

        if l:m[2] is# s:want
            let l:number = l:m[1]
        endif
    endfor

    call add(s:result.menus, {'entries': l:menu, 'want': s:want, 'typed': l:number,
    \   'prompt': get(filter(copy(l:rows), {_, v -> v =~# '^Type number'}), 0, '')})
    let s:want = ''
    " Nothing found: Enter alone cancels, and the next step times out.
    call feedkeys(l:number . "\<CR>", 't')
endfunction

function! s:CodeAction(code, title) abort
    let l:d = s:Find(a:code)
    " The cursor on the diagnostic's first byte, in Normal mode.
    call cursor(l:d.lnum, l:d.col)
    let s:want = a:title
    call feedkeys(":ALECodeAction\<CR>", 't')
endfunction

function! s:Finish(error) abort
    call timer_stop(s:timer)

    if !empty(a:error)
        let s:result.error = a:error
        silent! let s:result.ale_history = ale#history#Get(s:buffer)
        silent! let s:result.messages = execute('messages')
        let s:result.screen = s:Screen()
    endif

    call writefile([json_encode(s:result)], s:out, 'b')
    call ale#lsp#StopAll()
    qall!
endfunction

function! s:Start() abort
    execute 'edit ' . fnameescape(s:file)
    let s:buffer = bufnr('')
    let s:result.filetype = &filetype
    let s:result.ale_linter_file = globpath(&runtimepath, 'ale_linters/' . &filetype . '/irilint.vim')
    let s:result.linters = map(ale#linter#Get(&filetype), 'v:val.name')
endfunction

function! s:Diagnosed() abort
    let s:result.diagnostics = s:Diags()
    let s:line = s:Find('IRI401').lnum
    let s:result.lines_before = getline(1, s:line)
    call s:CodeAction('IRI401', "Encode '%' as '%25'")
endfunction

function! s:FirstApplied() abort
    let s:mark = s:publishes
    let s:result.line_after_fix = getline(s:line)
    let s:result.modified = &modified
endfunction

function! s:FirstChecked() abort
    let s:result.diagnostics_after_fix = s:Diags()
    call s:CodeAction('IRI101', 'Remove U+202E RIGHT-TO-LEFT OVERRIDE (unsafe)')
endfunction

function! s:SecondApplied() abort
    let s:mark = s:publishes
    let s:result.line_after_second_fix = getline(s:line)
endfunction

function! s:SecondChecked() abort
    let s:result.diagnostics_after_second_fix = s:Diags()
endfunction

let s:steps = [
\   ['opened', {-> 1}, function('s:Start')],
\   ['diagnostics', {-> !empty(s:Find('IRI401')) && !empty(s:Find('IRI101'))}, function('s:Diagnosed')],
\   ['first fix applied', {-> getline(s:line) =~# '100%25'}, function('s:FirstApplied')],
\   ['first fix checked', {-> s:publishes > s:mark && empty(s:Find('IRI401')) && !empty(s:Find('IRI101'))},
\       function('s:FirstChecked')],
\   ['second fix applied', {-> getline(s:line) !~# "\u202E"}, function('s:SecondApplied')],
\   ['second fix checked', {-> s:publishes > s:mark && empty(s:Find('IRI401')) && empty(s:Find('IRI101'))},
\       function('s:SecondChecked')],
\]
let s:deadline = reltime()

function! s:Tick(timer) abort
    try
        " At ALE's "Type number" prompt (input(), command-line type '@').
        if getcmdtype() is# '@' && !empty(s:want)
            call s:AnswerPrompt()

            return
        endif

        if mode(1) =~# '^r'
            " A hit-enter prompt after the menu: Enter, as the user would.
            call feedkeys("\<CR>", 't')

            return
        endif

        if mode(1) isnot# 'n' || !empty(getcmdtype())
            return
        endif

        if empty(s:steps)
            let s:result.ok = v:true
            call s:Finish('')

            return
        endif

        let [l:name, l:Cond, l:Action] = s:steps[0]

        if l:Cond()
            call add(s:result.steps, l:name)
            call remove(s:steps, 0)
            let s:deadline = reltime()
            call l:Action()
        elseif reltimefloat(reltime(s:deadline)) * 1000 >= s:wait_ms
            call s:Finish('step ' . string(l:name) . ': its condition did not hold within '
            \   . s:wait_ms . ' ms')
        endif
    catch
        call s:Finish('driver error: ' . v:exception . ' at ' . v:throwpoint)
    endtry
endfunction

let s:timer = timer_start(100, function('s:Tick'), {'repeat': -1})
