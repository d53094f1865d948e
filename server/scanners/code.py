"""Source code: IRIs in string literals, comments and the code around them.

(One module, over 600 lines: one linear pass splits a file into strings,
comments and code, and the per-language :class:`Syntax` table it reads is
part of that pass.)

No per-language tokenizer: a :class:`Syntax` says which quotes and comment
markers a language has, and one linear pass splits the file into string
literals, comments and the rest.  Every part is searched for bare IRIs, so
an IRI in ``"http://a.b/c"`` or ``'http://a.b/c'`` ends at the closing
quote, and shell-like files (``curl http://...``, Makefiles, Dockerfiles)
are covered too.

Contexts: ``string`` (a string literal), ``comment``, ``docstring`` (Python
only, see below) and ``unquoted`` for the rest of the code (shell
arguments, Makefile and ``.env`` values); in TeX the rest is the document's
text, ``bare``.  ``string`` and ``unquoted`` are data (a program reads them
as written, so no fix of them is safe, see ``DATA_CONTEXTS``); comments,
docstrings and TeX text are prose.

A Python docstring is told from other strings by its place, not by a
parse: a string literal (``r``/``u`` prefix allowed) that is the first
thing on its line, followed on its closing line by nothing but a comment,
and whose previous line with code (blank and comment lines skipped) is
either absent (the module's first statement) or a ``def``/``async
def``/``class`` header ending with ``:``.  A header spanning lines (up to
40) is followed back to its first line by bracket counting; brackets in
its strings and comments are counted too, so such a header may not be
recognised, and its docstring stays data, which only costs a safe fix.  A
string after any other statement, an attribute docstring included, is
data.

Simplifications, all of them bounded to one line or one literal:

* a backslash escapes the next character, so an IRI ends at an *unescaped*
  closing quote.  In the languages whose escapes are known (Python,
  JavaScript/TypeScript, C-family, Java, C#, Go, Rust, Kotlin, Swift and
  the others of ``Syntax.escapes``, shell ``$'...'``) a non-raw literal's
  escapes are decoded first (``"\\u202e"`` is the RIGHT-TO-LEFT OVERRIDE
  a program reads), with an offset map, so a finding on a decoded
  character points at its escape; raw literals (``r"..."``, ``@"..."``,
  ``R"(...)"``, Go backticks) and other languages are searched as written.
  An escape kept as written (Python's ``"\\F"``), or any escape in a
  literal searched as written, is not the start of an IRI: the candidate
  starts after it;
* a string in ``"`` or ``'`` that is not closed on its line ends there
  (apostrophes in Rust lifetimes or Lisp quotes cost at most one line);
  backticks (and every quote in shell) may span lines;
* line comment markers count at the start of a line or after whitespace
  (``#`` inside ``http://a/#frag`` or ``${#x}`` is no comment); ``//``
  also after ``;,(){}[]``, never after ``:`` or ``/`` as in ``file:///``.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Tuple

from ._common import POSSESSIVE_QUANTIFIERS, Decoded, OffsetBuilder
from ._decode import (C_STYLE, CSS_STYLE, JS_STYLE, PHP_STYLE, PYTHON_STYLE, RUBY_STYLE, RUST_STYLE,
                      SHELL_ANSI_C_STYLE,
                      EscapeStyle, decode_code_escapes)
from .base import Candidate, CommentSyntax, Scanner
from .text import _COLON_RX, find_iris
from ..templates import looks_like_regex


#: The rest of an escape sequence after its backslash, in the forms the
#: languages share: ``\\xHH``, ``\\uHHHH``, ``\\u{H...}``, ``\\UHHHHHHHH``,
#: ``\\N{NAME}``, octal ``\\ooo``, else the one character escaped.
_ESCAPE_TAIL_RX = re.compile(
    r"x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|u\{[0-9A-Fa-f]{1,6}\}|U[0-9A-Fa-f]{8}"
    r"|N\{[^}\n]{0,100}\}|[0-7]{1,3}|.", re.DOTALL)


def _escaped(text: str, i: int) -> bool:
    """Whether ``text[i]`` follows an unescaped backslash."""
    k = i
    while k > 0 and text[k - 1] == "\\":
        k -= 1
    return (i - k) % 2 == 1


def find_iris_in_string(text: str, lo: int, hi: int, context: str = "string") -> List[Candidate]:
    """``find_iris`` in a string literal's body: a candidate that would start
    inside an escape sequence (``"\\nhttp://e.org"`` gives ``nhttp://``)
    starts after it instead, so a fix can never turn ``\\F`` into ``\\f``."""
    found = find_iris(text, lo, hi, context)
    if not found or "\\" not in text[lo:hi]:
        return found
    out: List[Candidate] = []
    for c in found:
        if c.start > lo and _escaped(text, c.start):
            after = _ESCAPE_TAIL_RX.match(text, c.start).end()
            if after < c.end:
                out.extend(find_iris(text, after, c.end, context))
        else:
            out.append(c)
    return out


def _decoded_spans(piece: Decoded, context: str) -> List[Tuple[int, int]]:
    """Spans of the IRIs in a decoded literal body (value offsets)."""
    value = piece.value
    offsets = piece.offsets
    assert offsets is not None
    out: List[Tuple[int, int]] = []
    for c in find_iris(value, 0, len(value), context):
        start = c.start
        # After an escape kept as written (Python's "\\FTP:"), whose
        # backslash maps to one source character (a decoded "\\\\" maps
        # to two), the escaped character is the escape's, not the IRI's.
        if start > 0 and value[start - 1] == "\\" and offsets[start] - offsets[start - 1] == 1:
            if start + 1 < c.end:
                out.extend((d.start, d.end) for d in find_iris(value, start + 1, c.end, context))
            continue
        out.append((start, c.end))
    return out


def find_iris_in_decoded_string(piece: Decoded, context: str = "string") -> List[Candidate]:
    """Candidates in a string literal's decoded body, mapped back to the
    document: a character written as an escape (``\\u202e``) is found as
    the character it stands for, and a finding on it points at the escape."""
    if piece.offsets is None:
        return find_iris_in_string(piece.source, piece.base, piece.base + len(piece.value), context)
    return [piece.candidate(i, j, context) for i, j in _decoded_spans(piece, context)]


def find_iris_in_joined_strings(pieces: List[Decoded], context: str = "string") -> List[Candidate]:
    """Candidates in adjacent string literals that the language joins into
    one string (``"https://e.org/a" "/b"``): the bodies are read as one
    value; a candidate spanning several literals maps each character to its
    own literal (its offsets skip the quotes and space between them)."""
    source = pieces[0].source
    builder = OffsetBuilder(source, pieces[0].base)
    #: value index where a later literal starts -> end of the body before it
    body_ends: Dict[int, int] = {}
    length = 0
    for k, piece in enumerate(pieces):
        if k:
            prev = pieces[k - 1]
            body_ends[length] = prev.offset(len(prev.value)) if prev.value else prev.base
        builder.extend(piece)
        length += len(piece.value)
    last = pieces[-1]
    joined = builder.finish(last.offset(len(last.value)) if last.value else last.base)
    out: List[Candidate] = []
    for i, j in _decoded_spans(joined, context):
        c = joined.candidate(i, j, context)
        inner = {k - i: e for k, e in body_ends.items() if i < k <= j}
        if inner:
            end = inner.get(j - i, c.end)  # ending with a literal: at its quote
            offsets = list(c.offsets) if c.offsets is not None else list(range(c.start, c.end + 1))
            offsets[-1] = end
            c = Candidate(c.start, end, c.value, offsets, context, joined_ends=inner)
        out.append(c)
    return out


#: Syntax.escapes -> how non-raw string literals of the language spell escapes.
_ESCAPE_STYLES: Dict[str, EscapeStyle] = {
    "python": PYTHON_STYLE, "js": JS_STYLE, "c": C_STYLE, "cpp": C_STYLE,
    "csharp": C_STYLE, "go": C_STYLE, "rust": RUST_STYLE, "shell": SHELL_ANSI_C_STYLE,
    "css": CSS_STYLE, "php": PHP_STYLE, "ruby": RUBY_STYLE}


def _prefix_before(text: str, open_at: int) -> str:
    """The literal prefix glued to the quote at ``open_at`` (``r``, ``br``,
    ``@``, ``u8R``, ``r#``), or "" when the letters are the end of a longer
    name (``bar"`` is no prefix ``r``)."""
    p = open_at
    while p > 0 and open_at - p < 4 and (text[p - 1].isalnum() or text[p - 1] in "#@$_"):
        p -= 1
    if p > 0 and open_at - p == 4 and (text[p - 1].isalnum() or text[p - 1] == "_"):
        return ""
    return text[p:open_at]


def literal_escape_style(text: str, open_at: int, quote: str, syntax: "Syntax") -> Optional[EscapeStyle]:
    """How the string literal opening at ``open_at`` spells escapes, or
    ``None`` when it is raw (Python ``r"..."``, Rust ``r"..."``/``r#"..."#``,
    C# ``@"..."``, C++ ``R"(...)"``, Go and JS ``String.raw`` backticks,
    shell quotes other than ``$'...'``)."""
    lang = syntax.escapes
    if lang is None:
        return None
    if lang == "shell":
        return SHELL_ANSI_C_STYLE if quote == "'" and open_at > 0 and text[open_at - 1] == "$" else None
    if lang in ("php", "ruby"):  # single quotes: only \\ and \' (no IRI character)
        return None if quote == "'" else _ESCAPE_STYLES[lang]
    if quote[0] == "`":
        if lang != "js" or text.endswith("String.raw", 0, open_at):
            return None
        return JS_STYLE
    prefix = _prefix_before(text, open_at)
    if lang == "python" and ("r" in prefix or "R" in prefix):
        return None
    if lang == "rust" and (prefix.rstrip("#").endswith("r")):
        return None
    if lang == "csharp" and "@" in prefix:
        return None
    if lang == "cpp" and prefix.endswith("R"):
        return None
    return _ESCAPE_STYLES[lang]


#: A call whose argument is a regular expression, right before a literal
#: (and its prefix): Python re/regex and Django's re_path, unittest's
#: assertRegex, JavaScript RegExp, Java Pattern.compile, C# and Rust Regex,
#: Go regexp, PHP preg_*.
_REGEX_CALL_RX = re.compile(
    r"(?:\b(?:re|regex)\.(?:compile|match|search|fullmatch|sub|subn|findall|finditer|split)"
    r"|\bre_path|\bassert(?:Not)?Regexp?(?:Matches)?|\bRegExp|\bPattern\.compile|\bRegex(?:::new)?"
    r"|\bregexp\.(?:MustCompile|Compile|MatchString)|\bpreg_[a-z_]+)"
    r"\s*\(\s*(?:[A-Za-z]{0,2}|@)\Z")
#: How far before a literal a regex call is looked for.
_REGEX_CALL_LOOKBACK = 80


def _regex_argument(text: str, open_at: int) -> bool:
    """Whether the literal opening at ``open_at`` is the first argument of a
    call that takes a regular expression (``re.compile(r"^http://...")``)."""
    return _REGEX_CALL_RX.search(text, max(0, open_at - _REGEX_CALL_LOOKBACK), open_at) is not None


#: After a closed string literal: what may separate it from the next one
#: that the language joins to it, and that one's opening quote.
_ADJACENT: Dict[str, Tuple[str, str]] = {
    # each repetition is one blank, one whole comment or a continuation:
    # one way to match, so no backtracking when no literal follows
    "python": (r"(?:[ \t\f\r\n]|\\\r?\n|#[^\n]*(?![^\n]))*(?:[rRbBuUfF]{1,2})?", r"\"\"\"|\'\'\'|[\"']"),
    "c": (r"(?:\s|//[^\n]*(?![^\n])|/\*(?:[^*]|\*(?!/))*\*/)*(?:u8|[LuU])?", r"\""),
}
_ADJACENT["cpp"] = _ADJACENT["c"]
_ADJACENT_RX: Dict[str, "re.Pattern[str]"] = {
    lang: re.compile("%s(?P<q>%s)" % parts) for lang, parts in _ADJACENT.items()}
#: How many adjacent literals are read as one string at most.
_MAX_JOINED = 256


def _adjacent_literal(text: str, pos: int, syntax: "Syntax", rx: "re.Pattern[str]"
                      ) -> Optional[Tuple[int, int, int, int]]:
    """The string literal joined to the one that closed at ``pos``: its
    opening quote, body start and end, and where it closes; ``None`` if
    none follows or it does not close."""
    m = rx.match(text, pos)
    if m is None:
        return None
    quote = m.group("q")
    if len(quote) == 3:
        close = text.find(quote, m.end())
        return None if close < 0 else (m.start("q"), m.end(), close, close + 3)
    body_end = _string_end_rx(quote, quote in syntax.multiline_quotes).match(text, m.end()).end()
    if body_end >= len(text) or text[body_end] != quote:
        return None
    return (m.start("q"), m.end(), body_end, body_end + 1)


#: What may precede a JavaScript regex literal's "/" (ECMA-262 reads "/"
#: there as the start of a RegularExpressionLiteral, not as a division).
_JS_REGEX_BEFORE = "(,=:[!&|?{};+-*%<>~^"
#: The token of a regex literal starts at the punctuation before its "/"
#: (":" left out: the skip regex must not take an IRI's colon for code);
#: its body is bounded, so a "/" that was a division costs a bounded look.
_JS_REGEX_OPENER_CHARS = "(,=[!&|?{};"
_JS_REGEX_OPENER = r"[(,=\[!&|?{};][ \t]*/(?![/*])"
#: (characters the body excludes, the same after a backslash, a colon's
#: alternative): "" for the tokenizer, ":" and the safe colon for the skip.
_JS_REGEX_BODY = (r"(?:[^/\\\[\n%(x)s]|\\[^\n%(x)s]|\[(?:[^\]\\\n%(x)s]|\\[^\n%(x)s]%(colon)s)*+\]%(colon)s)"
                  r"{1,1000}+/[A-Za-z]*")


def _javascript_code(text: str, found: List[Candidate]) -> List[Candidate]:
    """Candidates in JavaScript code outside literals and comments: a
    property key (``{data:i[s]}``, ``,href:x``) is no IRI, and one inside a
    regex literal (``/^https?:\\/\\/e\\.org/``) is a template."""
    out: List[Candidate] = []
    for c in found:
        line_start = _line_start(text, c.start)
        p = _skip_blanks_back(text, c.start - 1, line_start)
        if p >= line_start and text[p] in "{," and not text.startswith("//", c.start + c.value.find(":") + 1):
            continue  # an object literal's key
        slash = text.rfind("/", line_start, c.start)
        while slash >= 0:
            q = _skip_blanks_back(text, slash - 1, line_start)
            if (q < line_start or text[q] in _JS_REGEX_BEFORE) and not text.startswith("//", slash) \
                    and (q < line_start or text[q] != "/"):
                c.template = True
                break
            slash = text.rfind("/", line_start, slash)
        out.append(c)
    return out


@dataclass(frozen=True)
class Syntax:
    """The lexical features of a language that matter for finding IRIs."""

    line_comments: Tuple[str, ...] = ("#", "//")
    block_comments: Tuple[Tuple[str, str], ...] = (("/*", "*/"),)
    #: characters that open (and close) a string literal
    quotes: str = "\"'`"
    #: quotes whose literals may span lines
    multiline_quotes: str = "`"
    #: Python-style triple-quoted strings (\"\"\" and ''')
    triple_quotes: bool = False
    #: Python docstrings (see the module docstring) are prose
    docstrings: bool = False
    #: text outside literals and comments is prose (TeX), not code
    prose_text: bool = False
    #: how string literals spell escapes (a key of ``_ESCAPE_STYLES``:
    #: "python", "js", "c", "cpp", "csharp", "go", "rust", "shell", "css",
    #: "php", "ruby"), or
    #: ``None``: literals are searched as written
    escapes: Optional[str] = None
    #: adjacent string literals are one string (Python, C, C++:
    #: ``"http://e.org" "/a"``), read as one
    adjacent_literals: bool = False
    #: JavaScript regex literals (``/^https?:\\/\\//i``) are tokens of
    #: their own, so a quote inside one opens no string
    regex_literals: bool = False


_C_LIKE = Syntax(("//",), (("/*", "*/"),), "\"'`", "`")
_JS = Syntax(("//",), (("/*", "*/"),), "\"'`", "`", escapes="js", regex_literals=True)
_C = Syntax(("//",), (("/*", "*/"),), "\"'`", "`", escapes="c")
_C_JOINED = Syntax(("//",), (("/*", "*/"),), "\"'`", "`", escapes="c", adjacent_literals=True)
_CPP = Syntax(("//",), (("/*", "*/"),), "\"'`", "`", escapes="cpp", adjacent_literals=True)
_CSHARP = Syntax(("//",), (("/*", "*/"),), "\"'`", "`", escapes="csharp")
_GO = Syntax(("//",), (("/*", "*/"),), "\"'`", "`", escapes="go")
_RUST = Syntax(("//",), (("/*", "*/"),), "\"'`", "`", escapes="rust")
_HASH = Syntax(("#",), (), "\"'`", "`")
_PYTHON = Syntax(("#",), (), "\"'", "", True, docstrings=True, escapes="python",
                 adjacent_literals=True)
_SHELL = Syntax(("#",), (), "\"'`", "\"'`", escapes="shell")
_SQL = Syntax(("--",), (("/*", "*/"),), "\"'`", "")
_LUA = Syntax(("--",), (("--[[", "]]"),), "\"'", "")
_HASKELL = Syntax(("--",), (("{-", "-}"),), '"', "")
_LISP = Syntax((";",), (("#|", "|#"),), '"', '"')
_INI = Syntax((";", "#"), (), '"', "")
_TEX = Syntax(("%",), (), "", "", prose_text=True)
_ERLANG = Syntax(("%",), (), "\"'", "")
_MATLAB = Syntax(("%",), (("%{", "%}"),), '"', "")
_PHP = Syntax(("//", "#"), (("/*", "*/"),), "\"'`", "`", escapes="php")
_RUBY = Syntax(("#",), (), "\"'`", "`", escapes="ruby")
_CSS = Syntax((), (("/*", "*/"),), "\"'", "", escapes="css")
_CSS_LIKE = Syntax(("//",), (("/*", "*/"),), "\"'`", "`", escapes="css")
_ML = Syntax((), (("(*", "*)"),), '"', "")
_FSHARP = Syntax(("//",), (("(*", "*)"),), '"', "", True)
_POWERSHELL = Syntax(("#",), (("<#", "#>"),), "\"'", "\"'")
_GENERIC = Syntax()

#: Language (LSP languageId, or a name of ours) -> its syntax.
LANGUAGES: Dict[str, Syntax] = {
    "code": _GENERIC,
    "python": _PYTHON, "ruby": _RUBY, "perl": _HASH, "r": _HASH,
    "julia": _HASH, "elixir": _HASH, "nim": _HASH, "coffeescript": _HASH,
    "crystal": _HASH, "tcl": _HASH, "cmake": _HASH, "makefile": _HASH,
    "dockerfile": _HASH, "properties": _HASH, "dotenv": _HASH,
    "shellscript": _SHELL, "powershell": _POWERSHELL,
    "c": _C_JOINED, "cpp": _CPP, "csharp": _CSHARP, "java": _C,
    "javascript": _JS, "typescript": _JS,
    "javascriptreact": _JS, "typescriptreact": _JS, "go": _GO,
    "rust": _RUST, "swift": _C, "kotlin": _C, "scala": _C,
    "dart": _C, "objective-c": _C_JOINED, "objective-cpp": _CPP,
    "groovy": _C, "zig": _C, "proto": _C, "graphql": _HASH,
    "php": _PHP, "css": _CSS, "scss": _CSS_LIKE, "less": _CSS_LIKE,
    "sql": _SQL, "lua": _LUA, "haskell": _HASKELL, "elm": _HASKELL,
    "ada": _SQL, "lisp": _LISP, "clojure": _LISP, "scheme": _LISP,
    "elisp": _LISP, "ini": _INI, "latex": _TEX, "tex": _TEX, "bibtex": _TEX,
    "erlang": _ERLANG, "matlab": _MATLAB, "ocaml": _ML, "fsharp": _FSHARP,
}

#: File extension (lowercase, with dot) -> language.
EXTENSIONS: Dict[str, str] = {
    ".py": "python", ".pyi": "python", ".pyw": "python",
    ".rb": "ruby", ".pl": "perl", ".pm": "perl", ".r": "r", ".jl": "julia",
    ".ex": "elixir", ".exs": "elixir", ".nim": "nim", ".coffee": "coffeescript",
    ".cr": "crystal", ".tcl": "tcl", ".cmake": "cmake", ".mk": "makefile",
    ".mak": "makefile", ".properties": "properties", ".env": "dotenv",
    ".sh": "shellscript", ".bash": "shellscript", ".zsh": "shellscript",
    ".ksh": "shellscript", ".fish": "shellscript",
    ".ps1": "powershell", ".psm1": "powershell",
    ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp",
    ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp", ".cs": "csharp",
    ".java": "java", ".js": "javascript", ".mjs": "javascript",
    ".cjs": "javascript", ".jsx": "javascriptreact", ".ts": "typescript",
    ".mts": "typescript", ".cts": "typescript", ".tsx": "typescriptreact",
    ".go": "go", ".rs": "rust", ".swift": "swift", ".kt": "kotlin",
    ".kts": "kotlin", ".scala": "scala", ".dart": "dart", ".m": "objective-c",
    ".mm": "objective-cpp", ".groovy": "groovy", ".gradle": "groovy",
    ".zig": "zig", ".proto": "proto", ".graphql": "graphql", ".gql": "graphql",
    ".php": "php", ".css": "css", ".scss": "scss", ".less": "less",
    ".sql": "sql", ".lua": "lua", ".hs": "haskell", ".elm": "elm",
    ".adb": "ada", ".ads": "ada", ".lisp": "lisp", ".lsp": "lisp",
    ".cl": "lisp", ".el": "elisp", ".clj": "clojure", ".cljs": "clojure",
    ".cljc": "clojure", ".edn": "clojure", ".scm": "scheme", ".ss": "scheme",
    ".rkt": "scheme", ".ini": "ini", ".cfg": "ini", ".conf": "ini",
    ".tex": "latex", ".sty": "latex", ".cls": "latex", ".bib": "bibtex",
    ".erl": "erlang", ".hrl": "erlang", ".ml": "ocaml", ".mli": "ocaml",
    ".fs": "fsharp", ".fsx": "fsharp",
}

#: Whole file names (compared case-sensitively, then lowercased) -> language.
FILENAMES: Dict[str, str] = {
    "Makefile": "makefile", "makefile": "makefile", "GNUmakefile": "makefile",
    "Dockerfile": "dockerfile", "Containerfile": "dockerfile",
    "CMakeLists.txt": "cmake", "Rakefile": "ruby", "Gemfile": "ruby",
    "Vagrantfile": "ruby", "Podfile": "ruby", "Jenkinsfile": "groovy",
    ".gitignore": "dotenv", ".dockerignore": "dotenv",
    ".env": "dotenv", ".bashrc": "shellscript", ".zshrc": "shellscript",
    ".profile": "shellscript", ".editorconfig": "ini", ".gitconfig": "ini",
}

_END_RX_CACHE: Dict[Tuple[str, bool], "re.Pattern[str]"] = {}


def _string_end_rx(quote: str, multiline: bool) -> "re.Pattern[str]":
    """Matches the body of a string literal up to its closing quote."""
    rx = _END_RX_CACHE.get((quote, multiline))
    if rx is None:
        q = re.escape(quote)
        body = r"(?:[^%s\\]|\\.)*" if multiline else r"(?:[^%s\\\n]|\\.)*"
        rx = re.compile(body % q, re.DOTALL if multiline else 0)
        _END_RX_CACHE[(quote, multiline)] = rx
    return rx


def _token_rx(syntax: Syntax) -> "re.Pattern[str]":
    """One regex for everything that starts a literal or a comment."""
    parts = []
    if syntax.triple_quotes:
        parts.append(r'(?P<triple>"""|\'\'\')')
    for i, (opener, _closer) in enumerate(syntax.block_comments):
        parts.append("(?P<block%d>%s)" % (i, re.escape(opener)))
    line = []
    for marker in syntax.line_comments:
        if marker == "//":
            line.append(r"(?<![^\s;,(){}\[\]])//")
        else:
            line.append(r"(?<!\S)" + re.escape(marker))
    if line:
        parts.append("(?P<line>%s)" % "|".join(line))
    if syntax.quotes:
        parts.append("(?P<quote>[%s])" % re.escape(syntax.quotes))
    if syntax.regex_literals:
        parts.append("(?P<regex>%s%s)" % (_JS_REGEX_OPENER, _JS_REGEX_BODY % {"x": "", "colon": ""}))
    if not parts:
        return re.compile(r"(?!)")
    return re.compile("|".join(parts))


def _until_rx(closer: str, safe_colon: str, escapes: bool = False) -> str:
    """Text up to and including the first ``closer``, with no IRI anchor
    (with ``escapes``, no escape that decodes to a colon either)."""
    c0 = re.escape(closer[0])
    if escapes:
        safe_colon = r"%s|\\(?!%s)" % (safe_colon, _ESCAPED_COLON)
        c0 += r"\\"
    if len(closer) == 1:
        return "(?:[^%s:]++|%s)*+%s" % (c0, safe_colon, re.escape(closer))
    return "(?:[^%s:]++|%s(?!%s)|%s)*+%s" % (
        c0, re.escape(closer[0]), re.escape(closer[1:]), safe_colon, re.escape(closer))


def _skip_rx(syntax: Syntax) -> Optional["re.Pattern[str]"]:
    """A run of code, literals and comments with no IRI anchor, as units of
    code followed by one whole literal or comment, split exactly as
    :func:`scan_code` splits them; ``None`` before Python 3.11 (the pattern
    needs possessive quantifiers to stay linear).

    Each literal or comment is guarded by the openers ``_token_rx`` tries
    before it, so a triple quote whose body holds an anchor is not taken for
    an empty string instead, nor Lua's ``--[[`` for a line comment.  The run
    ends after a whole literal or comment, where the tokenizer resumes.
    """
    if not FAST_SKIP:
        return None
    safe_colon = "(?!(?i:%s)):" % _COLON_RX.pattern
    if syntax.escapes is not None:
        # "http:\/\/..." in a literal whose escapes are decoded
        safe_colon = "(?!(?i:%s)|:/?\\\\):" % _COLON_RX.pattern
    openers: List[str] = []  # regexes, in _token_rx's order
    bodies: List[str] = []
    first_chars = set()
    # A literal another one is joined to is not skipped: the tokenizer
    # reads the two as one string, wherever the anchor is.
    joined = ""
    if syntax.adjacent_literals and syntax.escapes in _ADJACENT:
        joined = "(?!%s(?:%s))" % _ADJACENT[syntax.escapes]
    if syntax.triple_quotes:
        for triple in ('"""', "'''"):
            openers.append(re.escape(triple))
            bodies.append(_until_rx(triple, safe_colon, syntax.escapes is not None) + joined)
            first_chars.add(triple[0])
    for opener, closer in syntax.block_comments:
        openers.append(re.escape(opener))
        bodies.append(_until_rx(closer, safe_colon))
        first_chars.add(opener[0])
    for marker in syntax.line_comments:
        if marker == "//":
            openers.append(r"(?<![^\s;,(){}\[\]])//")
        else:
            openers.append(r"(?<!\S)" + re.escape(marker))
        bodies.append(r"(?:[^\n:]++|%s)*+(?=\n|\Z)" % safe_colon)
        first_chars.add(marker[0])
    # an escape that decodes to a colon may anchor an IRI too
    esc = "(?!%s)" % _ESCAPED_COLON if syntax.escapes is not None else ""
    for q in syntax.quotes:
        qe = re.escape(q)
        openers.append(qe)
        first_chars.add(q)
        if q in syntax.multiline_quotes:
            bodies.append(r"(?:[^%s\\:]++|\\%s[^:]|%s)*+%s%s" % (qe, esc, safe_colon, qe, joined))
        else:
            bodies.append(r"(?:[^%s\\:\n]++|\\%s[^:\n]|%s)*+(?:%s|(?=\n))%s" % (
                qe, esc, safe_colon, qe, joined))
    if syntax.regex_literals:
        openers.append(_JS_REGEX_OPENER)
        bodies.append(_JS_REGEX_BODY % {"x": ":", "colon": "|" + safe_colon})
        first_chars.update(_JS_REGEX_OPENER_CHARS)
    if not openers:
        return None
    tokens = "|".join(
        "%s%s%s" % ("(?!%s)" % "|".join(openers[:i]) if i else "", opener, body)
        for i, (opener, body) in enumerate(zip(openers, bodies)))
    starts = "".join(re.escape(c) for c in sorted(first_chars))
    code = "(?:[^%s:]++|(?!%s)[%s]|%s)*+" % (starts, "|".join(openers), starts, safe_colon)
    return re.compile("(?:%s(?:%s))*+" % (code, tokens))


#: After a backslash, the escapes that spell a colon (``\\x3a``,
#: ``\\u003A``, ``\\u{3a}``, ``\\U0000003a``, octal ``\\072``, ``\\N{COLON}``).
_ESCAPED_COLON = r"(?:x3[aA]|u003[aA]|U0000003[aA]|u\{0{0,6}3[aA]\}|072|N\{COLON\})"
#: A colon before an escape (``http:\\/\\/``, ``http:/\\x2f``), or an escape that spells one: where an IRI
#: may be anchored once a literal's escapes are decoded.
_ESCAPED_COLON_RX = re.compile(r":/?(?=\\)|\\%s" % _ESCAPED_COLON)

#: Whether the skip regexes are used (see POSSESSIVE_QUANTIFIERS).
FAST_SKIP = POSSESSIVE_QUANTIFIERS
_SKIP_RX_CACHE: Dict[Syntax, Optional["re.Pattern[str]"]] = {}


def _skip_rx_for(syntax: Syntax) -> Optional["re.Pattern[str]"]:
    try:
        return _SKIP_RX_CACHE[syntax]
    except KeyError:
        rx = _SKIP_RX_CACHE[syntax] = _skip_rx(syntax)
        return rx


#: After a docstring's closing quote: nothing but a comment.
_DOCSTRING_TAIL_RX = re.compile(r"[ \t\f\r]*(?:#[^\n]*)?(?:\n|\Z)")
_HEADER_RX = re.compile(r"[ \t\f]*(?:async[ \t]+)?(?:def|class)\b")
_BLANKS = " \t\f\r"
#: How many lines a def/class header may span, followed back from its ":"
#: (a longer one is not recognised: its docstring stays data); bounds the
#: look back of each literal that is the first on its line.
_MAX_HEADER_LINES = 40


def _line_start(text: str, i: int) -> int:
    return text.rfind("\n", 0, i) + 1


def _skip_blanks_back(text: str, p: int, floor: int) -> int:
    """The last position at or before ``p`` (not before ``floor``) that is
    no blank, or ``floor - 1``."""
    while p >= floor and text[p] in _BLANKS:
        p -= 1
    return p


def _first_on_line(text: str, open_at: int) -> bool:
    """Whether only indentation and a prefix that keeps a literal a
    docstring (``r``, ``u``; an f-string or bytes literal is none) precede
    the quote at ``open_at`` on its line.  Looks back only over those."""
    p = open_at - 1
    if p >= 0 and text[p] in "rRuU":
        p -= 1
    p = _skip_blanks_back(text, p, 0)
    return p < 0 or text[p] == "\n"


def _ends_with_colon(text: str, lo: int, hi: int) -> bool:
    """Whether the line ``text[lo:hi]`` ends with ":", a comment aside.
    Every "#" is tried as the comment's start (one may be in a string):
    each look back covers only the blanks before it."""
    p = _skip_blanks_back(text, hi - 1, lo)
    if p >= lo and text[p] == ":":
        return True
    k = text.find("#", lo, hi)
    while k >= 0:
        p = _skip_blanks_back(text, k - 1, lo)
        if p >= lo and text[p] == ":":
            return True
        k = text.find("#", k + 1, hi)
    return False


def _continued(text: str, line_start: int) -> bool:
    """Whether the line before the one at ``line_start`` ends with a
    backslash, which continues it on this one."""
    p = line_start - 1  # its newline
    if p > 0 and text[p - 1] == "\r":
        p -= 1
    return p > 0 and text[p - 1] == "\\"


#: A line's end (its newline's offset) -> its start and its brackets, opened
#: minus closed: filled while looking back from docstring candidates, so
#: each line of a file is counted once however many look-backs cross it.
LineBrackets = Dict[int, Tuple[int, int]]


def _line_brackets(text: str, end: int, memo: LineBrackets) -> Tuple[int, int]:
    hit = memo.get(end)
    if hit is None:
        start = _line_start(text, end)
        segment = text[start:end]
        hit = memo[end] = (start, segment.count("(") + segment.count("[") + segment.count("{")
                           - segment.count(")") - segment.count("]") - segment.count("}"))
    return hit


def _is_docstring(text: str, open_at: int, close_end: int,
                  memo: Optional[LineBrackets] = None) -> bool:
    """Whether the Python string literal whose opening quote is at
    ``open_at`` and which ends before ``close_end`` is a docstring (the
    rule is in the module docstring).  Only a literal that is the first on
    its line is looked at further, so a line costs one look back; ``memo``
    (one per text) keeps the bracket counts of the lines it crossed."""
    if not _first_on_line(text, open_at):
        return False
    if not _DOCSTRING_TAIL_RX.match(text, close_end):
        return False
    # The previous line with code, over blank and comment-only lines.
    end = _line_start(text, open_at) - 1  # the newline ending the previous line
    while end >= 0:
        line_start = _line_start(text, end)
        p = line_start
        while p < end and text[p] in _BLANKS:
            p += 1
        if p < end and text[p] != "#":
            break
        end = line_start - 1
    else:
        return True  # the module's first statement
    if not _ends_with_colon(text, line_start, end):
        return False
    # The header's first line: where brackets up to the ":" balance.
    if memo is None:
        memo = {}
    depth = 0
    for _ in range(_MAX_HEADER_LINES):
        line_start, brackets = _line_brackets(text, end, memo)
        depth += brackets
        if depth > 0:
            return False  # the ":" is inside brackets (a dict, a lambda)
        if depth == 0 and not _continued(text, line_start):
            return _HEADER_RX.match(text, line_start) is not None
        if line_start == 0:
            return False
        end = line_start - 1
    return False


def scan_code(text: str, syntax: Syntax = _GENERIC,
              token_rx: Optional["re.Pattern[str]"] = None, fast: bool = True) -> List[Candidate]:
    """Candidates in source code written with ``syntax``.

    Every candidate is anchored on a colon ``find_iris`` can start an IRI
    at, and such a colon in a window is one in the whole text (its pattern
    only looks at the text around it).  So the colons are found first, with
    one C-level pass: a file without one gives nothing, windows without one
    are not searched, and tokenizing stops after the last one (the rest of
    the file only decides contexts of candidates that cannot exist).
    ``fast=False`` tokenizes the whole file and searches every window: the
    reference the fast path is tested against.
    """
    return list(iter_code(text, syntax, token_rx, fast))


def iter_code(text: str, syntax: Syntax = _GENERIC,
              token_rx: Optional["re.Pattern[str]"] = None, fast: bool = True) -> Iterator[Candidate]:
    """The candidates of :func:`scan_code`, in its order, handed out after
    each token as they are found (not the whole file's at the end)."""
    n = len(text)
    anchors = [m.start() for m in _COLON_RX.finditer(text)] if fast else []
    if fast and syntax.escapes is not None and "\\" in text:
        # a colon before an escape may start an IRI once the escapes of a
        # literal are decoded ("http:\/\/e.org" in JavaScript)
        first = _ESCAPED_COLON_RX.search(text)
        if first is not None:
            extra = [m.start() for m in _ESCAPED_COLON_RX.finditer(text, first.start())]
            anchors = sorted(set(anchors).union(extra))
    if fast and not anchors:
        return
    last_anchor = anchors[-1] if fast else n - 1
    rx = token_rx or _token_rx(syntax)
    # Runs of literals and comments with no anchor are skipped with one
    # match, up to where the tokenizer would resume anyway.
    skip = _skip_rx_for(syntax) if fast else None
    out: List[Candidate] = []
    outside = "bare" if syntax.prose_text else "unquoted"
    line_brackets: LineBrackets = {}

    js = syntax.escapes == "js"
    adjacent = _ADJACENT_RX.get(syntax.escapes or "") if syntax.adjacent_literals else None

    def search(lo: int, hi: int, context: str = outside) -> None:
        k = bisect_left(anchors, lo)
        if not fast or (k < len(anchors) and anchors[k] < hi):
            found = find_iris(text, lo, hi, context)
            if js and context == "unquoted" and found:
                found = _javascript_code(text, found)
            out.extend(found)

    def decoded(open_at: int, lo: int, hi: int) -> Decoded:
        style = literal_escape_style(text, open_at, text[open_at], syntax) \
            if syntax.escapes is not None and text.find("\\", lo, hi) >= 0 else None
        return Decoded.plain(text, lo, hi) if style is None else decode_code_escapes(text, lo, hi, style)

    def search_string(open_at: int, lo: int, hi: int, close_end: int) -> int:
        """Search the literal and those joined to it; where to go on."""
        joined = [(open_at, lo, hi)]
        if adjacent is not None and close_end > hi:
            nxt = _adjacent_literal(text, close_end, syntax, adjacent)
            while nxt is not None and len(joined) < _MAX_JOINED:
                joined.append(nxt[:3])
                close_end = nxt[3]
                nxt = _adjacent_literal(text, close_end, syntax, adjacent)
        last_hi = joined[-1][2]
        k = bisect_left(anchors, lo)
        if not fast or (k < len(anchors) and anchors[k] < last_hi):
            prose = syntax.docstrings and len(joined) == 1 and \
                _is_docstring(text, open_at, close_end, line_brackets)
            context = "docstring" if prose else "string"
            if len(joined) == 1:
                piece = decoded(open_at, lo, hi)
                body = piece.value
                found = find_iris_in_decoded_string(piece, context)
            else:
                pieces = [decoded(*p) for p in joined]
                body = "".join(p.value for p in pieces)
                found = find_iris_in_joined_strings(pieces, context)
            if found and not prose and (_regex_argument(text, open_at) or looks_like_regex(body)):
                for c in found:
                    c.template = True
            out.extend(found)
        return close_end

    pos = 0
    while pos <= last_anchor:
        if out:
            yield from out
            out.clear()
        if skip is not None:
            pos = skip.match(text, pos).end()
        m = rx.search(text, pos)
        if m is None:
            break
        start = m.start()
        if start > pos:
            search(pos, start)
        kind = m.lastgroup
        if kind == "line":
            nl = text.find("\n", m.end())
            end = nl if nl >= 0 else n
            search(m.end(), end, "comment")
            pos = end
        elif kind == "quote":
            quote = m.group()
            multiline = quote in syntax.multiline_quotes
            body_end = _string_end_rx(quote, multiline).match(text, m.end()).end()
            pos = body_end + 1 if body_end < n and text[body_end] == quote else body_end
            pos = search_string(start, m.end(), body_end, pos)
        elif kind == "regex":
            # its body: data, and a pattern (a template), not an IRI
            slash = text.index("/", start)
            pos = m.end()
            k = bisect_left(anchors, slash)
            if not fast or (k < len(anchors) and anchors[k] < pos):
                found = find_iris_in_string(text, slash + 1, text.rindex("/", slash + 1, pos), "string")
                for c in found:
                    c.template = True
                out.extend(found)
        elif kind == "triple":
            close = text.find(m.group(), m.end())
            end = close if close >= 0 else n
            pos = end + 3 if close >= 0 else n
            pos = search_string(start, m.end(), end, pos)
        else:  # a block comment
            closer = syntax.block_comments[int(kind[5:])][1]
            close = text.find(closer, m.end())
            end = close if close >= 0 else n
            search(m.end(), end, "comment")
            pos = end + len(closer) if close >= 0 else n
    if pos <= last_anchor:
        search(pos, n)
    yield from out


def _comment_syntaxes(syntax: Syntax) -> Tuple[CommentSyntax, ...]:
    found = tuple(CommentSyntax(m) for m in syntax.line_comments)
    found += tuple(CommentSyntax(o, c) for o, c in syntax.block_comments)
    return found or (CommentSyntax("#"),)


class CodeScanner(Scanner):
    """Source code of one language (generic: ``#``, ``//``, ``/* */``)."""

    name = "code"
    comments = _comment_syntaxes(_GENERIC)
    text_is_data = True

    def __init__(self, language: str = "code") -> None:
        if language not in LANGUAGES:
            raise KeyError("unknown code language: %r" % language)
        self.language = language
        self.syntax = LANGUAGES[language]
        self.comments = _comment_syntaxes(self.syntax)
        self.text_is_data = not self.syntax.prose_text
        self._token_rx = _token_rx(self.syntax)

    def scan(self, text: str) -> Iterator[Candidate]:
        return iter_code(text, self.syntax, self._token_rx)

    def __repr__(self) -> str:
        return "CodeScanner(%r)" % self.language
