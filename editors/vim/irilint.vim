" irilint.vim: the irilint language server in Vim, through ALE.
"
" In your vimrc, after ALE is available (Debian's vim-ale: `packadd ale`):
"     source /path/to/irilint/editors/vim/irilint.vim
"
" This puts editors/vim on 'runtimepath', where ALE finds the linter
" definitions ale_linters/<filetype>/irilint.vim (markdown, html, xml, text,
" rst, python, javascript, typescript, json, yaml, toml, turtle).  For the
" filetypes where ALE runs only a default list of linters (json, python,
" text, yaml) and you have not set g:ale_linters[filetype], it adds irilint
" to ALE's defaults there.  Set g:irilint_ale_enable_defaults = 0 first to
" leave g:ale_linters alone.
if exists('g:loaded_irilint')
    finish
endif
let g:loaded_irilint = 1

let s:dir = expand('<sfile>:p:h')

if index(map(split(&runtimepath, ','), 'fnamemodify(v:val, ":p")'), fnamemodify(s:dir, ':p')) < 0
    execute 'set runtimepath+=' . fnameescape(s:dir)
endif

" ALE 3.3's defaults for the filetypes that do not run every linter.
let s:ale_defaults = {
\   'json': ['jsonlint', 'spectral', 'vscodejson'],
\   'python': ['flake8', 'mypy', 'pylint', 'pyright', 'ruff'],
\   'text': [],
\   'yaml': ['spectral', 'yaml-language-server', 'yamllint'],
\}

if get(g:, 'irilint_ale_enable_defaults', 1)
    if !exists('g:ale_linters')
        let g:ale_linters = {}
    endif

    if type(g:ale_linters) is v:t_dict
        for [s:ft, s:linters] in items(s:ale_defaults)
            if !has_key(g:ale_linters, s:ft)
                let g:ale_linters[s:ft] = s:linters + ['irilint']
            endif
        endfor
    endif
endif
