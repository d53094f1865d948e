# irilint (IRIs, RFC 3987, in documents) for Kakoune with kakoune-lsp
# (kak-lsp 17 or later, which reads its servers from the `lsp_servers`
# option).  Source this from your kakrc after kakoune-lsp is loaded:
#     source /path/to/irilint/editors/kakoune/irilint.kak
# irilint is *added* (-add) to the servers kakoune-lsp starts for each
# filetype, so it runs beside the language's own server.

hook -group lsp-filetype-irilint global BufSetOption filetype=(?:markdown|html|xml|restructuredtext|python|javascript|typescript|json|yaml|toml) %{
    set-option -add buffer lsp_servers %{
        [irilint]
        command = "irilint"
        args = ["server"]
        root_globs = ["irilint.toml", ".irilint.toml", "pyproject.toml", ".git", ".hg"]
        # The keys of [tool.irilint] / irilint.toml, answered to
        # workspace/configuration (section "irilint"); the project's config
        # file is the base.
        settings_section = "irilint"
        [irilint.settings.irilint]
        # ignore = ["IRI402"]
    }
}
