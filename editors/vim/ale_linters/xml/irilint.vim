" irilint (IRIs, RFC 3987) for xml files, through ALE's LSP support.
" Description: see editors/vim/README.md

call irilint#Define('xml', 'xml')
