" irilint: the pieces that the ALE linter definitions share.
" (editors/vim/ale_linters/<filetype>/irilint.vim call irilint#Define.)

" The server command, a list of strings; first found:
"   g:irilint_server_command  (a List, or a String split on white space)
"   $IRILINT_SERVER_CMD       (a JSON array of strings, or a command line)
"   ['irilint', 'server']
function! irilint#Command() abort
    let l:cmd = get(g:, 'irilint_server_command', v:null)

    if type(l:cmd) is v:t_list && !empty(l:cmd)
        return l:cmd
    elseif type(l:cmd) is v:t_string && !empty(l:cmd)
        return split(l:cmd)
    endif

    let l:env = $IRILINT_SERVER_CMD

    if l:env =~# '^\s*\['
        return json_decode(l:env)
    elseif l:env !~# '^\s*$'
        return split(l:env)
    endif

    return ['irilint', 'server']
endfunction

function! irilint#Executable(buffer) abort
    return irilint#Command()[0]
endfunction

" ALE runs the command through the shell; %e is the executable, escaped.
function! irilint#AleCommand(buffer) abort
    return '%e' . join(map(irilint#Command()[1:], {_, v -> ' ' . ale#Escape(v)}), '')
endfunction

" The nearest folder up from the file with an irilint or project marker,
" else the file's folder: the server reads its configuration from there.
function! irilint#ProjectRoot(buffer) abort
    for l:name in ['.irilint.toml', 'irilint.toml', 'pyproject.toml']
        let l:found = ale#path#FindNearestFile(a:buffer, l:name)

        if !empty(l:found)
            return fnamemodify(l:found, ':h')
        endif
    endfor

    let l:git = ale#path#FindNearestDirectory(a:buffer, '.git')

    if !empty(l:git)
        " FindNearestDirectory returns the directory with a trailing slash.
        return fnamemodify(substitute(l:git, '[/\\]\+$', '', ''), ':h')
    endif

    let l:dir = fnamemodify(bufname(a:buffer), ':p:h')

    return empty(l:dir) ? getcwd() : l:dir
endfunction

" ALE (up to at least 3.3) counts LSP columns in bytes, while LSP's default
" is UTF-16 code units: ask the server to count in UTF-8 bytes instead, so
" columns and quick fixes land right on lines with non-ASCII text.
" g:irilint_initialization_options adds to (or overrides) this.
function! irilint#InitializationOptions(buffer) abort
    return extend({'positionEncoding': 'utf-8'},
    \   get(g:, 'irilint_initialization_options', {}))
endfunction

" Settings sent with workspace/didChangeConfiguration ({'irilint': {...}}).
function! irilint#LspConfig(buffer) abort
    let l:settings = get(g:, 'irilint_settings', {})

    return empty(l:settings) ? {} : {'irilint': l:settings}
endfunction

function! irilint#Define(filetype, language) abort
    call ale#linter#Define(a:filetype, {
    \   'name': 'irilint',
    \   'lsp': 'stdio',
    \   'executable': function('irilint#Executable'),
    \   'command': function('irilint#AleCommand'),
    \   'project_root': function('irilint#ProjectRoot'),
    \   'language': a:language,
    \   'initialization_options': function('irilint#InitializationOptions'),
    \   'lsp_config': function('irilint#LspConfig'),
    \})
endfunction
