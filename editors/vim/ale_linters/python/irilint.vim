" irilint (IRIs, RFC 3987) for python files, through ALE's LSP support.
" Description: see editors/vim/README.md

call irilint#Define('python', 'python')
