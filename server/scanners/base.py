"""The contract every scanner fulfils.

A scanner finds IRI references in a document and returns them as
:class:`Candidate` objects.  Offsets are *code point* offsets into the
document text (a Python ``str``); positions in lines/columns or UTF-16 units
are derived later from a line index, never by the scanner.

When the text of a reference in the source differs from the reference itself
(HTML/XML character references such as ``&#x202E;`` or ``&amp;``, escapes in
JSON strings), the scanner decodes it and records an *offset map*, so that a
finding on one decoded character points at the characters in the file that
produced it.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

#: ``dataclass`` keywords of :class:`Candidate`, made once per reference:
#: slots where ``dataclass`` has them (Python 3.10 and later)
_SLOTS: Dict[str, bool] = {"slots": True} if sys.version_info >= (3, 10) else {}


#: The contexts where a reference is data, not prose: a program reads it as
#: written, so changing its spelling changes what the program does, even
#: when the new spelling is an equivalent URI (an expected value in a test,
#: a key looked up in a table).  Every fix of a reference found there is
#: unsafe.  Context -> what it is, for the reason a fix's title gives.
#: Prose keeps its own contexts ("bare", "angle", "comment", "docstring",
#: "markdown-link", "html-attr", ...).
DATA_CONTEXTS: Mapping[str, str] = {
    # in code (outside TeX) and in JSON/YAML/TOML: a string literal
    "string": "a string literal",
    # code outside literals and comments (shell arguments, Makefiles, .env
    # files), YAML plain scalars, TOML outside strings
    "unquoted": "an unquoted value",
    # a JSON/YAML/TOML value under a key that names an IRI ("$ref", "url")
    "iri-value": "a value",
    # the content of an HTML <script> or <style> element
    "script": "code in a script or style element",
    # Turtle/SPARQL IRI terms
    "turtle-iri": "an RDF term",
    "turtle-base": "an RDF term",
    "turtle-prefix": "an RDF term",
}


@dataclass(frozen=True)
class CommentSyntax:
    """How a line comment is written in a format: used for suppressions."""

    prefix: str
    suffix: str = ""


@dataclass(**_SLOTS)
class Candidate:
    """One IRI reference found in a document.

    ``value`` is the reference as a reader means it (character references
    decoded).  ``start``/``end`` delimit its source text in the document.
    ``offsets``, when not ``None``, has ``len(value) + 1`` entries: the
    document offset where each character of ``value`` starts, plus the end
    offset.  ``None`` means ``value == document[start:end]``.
    """

    start: int
    end: int
    value: str
    offsets: Optional[Sequence[int]] = None
    #: what kind of place it was found in ("bare", "angle", "markdown-link",
    #: "html-attr", "string", "comment", "docstring", "turtle-iri", ...),
    #: for messages; whether the reference is data (DATA_CONTEXTS)
    context: str = "bare"
    #: the source has an unescaped backslash right before it ("\\FTP://" in
    #: prose, roff or comments): a fix of its first character could turn
    #: the two into an escape ("\\ftp" is a roff font change), so such a
    #: fix is unsafe
    after_backslash: bool = False
    #: the scanner knows the reference is part of a template, not an IRI
    #: yet: it was found in a regular expression (a literal passed to
    #: ``re.compile``/``new RegExp``, or one written in regex syntax), so
    #: only the rules about what a reader cannot see run on it (see
    #: ``irilint.engine.template_rules``)
    template: bool = False
    #: for a reference read over adjacent string literals joined into one
    #: (``"http://e.org/" "a"``): value position where a later literal's
    #: part starts -> document offset where the literal before it ends, so
    #: a span ending there stops at that literal's quote, not at the next
    #: literal (``offsets`` gives the start of every character)
    joined_ends: Optional[Dict[int, int]] = None

    @property
    def is_data(self) -> bool:
        """Whether the reference is data a program reads (see
        :data:`DATA_CONTEXTS`): then no fix of it is safe."""
        return self.context in DATA_CONTEXTS

    def source_offset(self, i: int) -> int:
        """Document offset of position ``i`` (0..len(value)) in ``value``."""
        if self.offsets is None:
            return self.start + i
        return self.offsets[i]

    def source_span(self, i: int, j: int) -> Tuple[int, int]:
        """Document span of the value span ``[i, j)``."""
        if i == j:
            p = self.source_offset(i)
            return p, p
        if self.joined_ends is not None and j in self.joined_ends:
            return self.source_offset(i), self.joined_ends[j]
        return self.source_offset(i), self.source_offset(j)


class Scanner:
    """Base class: subclasses set ``name`` and implement :meth:`scan`."""

    name: str = "text"
    #: comment syntaxes a suppression may use in this format, preferred first.
    comments: Tuple[CommentSyntax, ...] = (CommentSyntax("#"),)
    #: text outside comments is data (code, JSON, YAML, TOML, Turtle): its
    #: candidates have DATA_CONTEXTS, and other edits of it (removing an
    #: unused suppression that is not a comment of its own) are unsafe too
    text_is_data: bool = False

    def scan(self, text: str) -> Iterable[Candidate]:  # pragma: no cover - abstract
        """The candidates of ``text``, sorted and non-overlapping: a list,
        or a generator that finds them as they are asked for (a large
        document is then checked without holding all of them)."""
        raise NotImplementedError
