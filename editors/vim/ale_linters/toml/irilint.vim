" irilint (IRIs, RFC 3987) for toml files, through ALE's LSP support.
" Description: see editors/vim/README.md

call irilint#Define('toml', 'toml')
