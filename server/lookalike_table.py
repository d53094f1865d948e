"""Letters that look like Latin ones beyond UTS #39 (GENERATED; do not edit).

Regenerate with ``python tools/gen_lookalike_table.py``; the table and why it exists are in that script.
Policy: Chromium's IDN display policy (docs/idn.md), used only for comparing
hosts with protected domains and for whole-script confusable labels.
"""

REGENERATE_COMMAND = 'python tools/gen_lookalike_table.py'

#: character -> the Latin letters (or digit) it is drawn like
DRAWN_LIKE = {
    '\xe6': 'ae',  # LATIN SMALL LETTER AE
    '\u0127': 'h',  # LATIN SMALL LETTER H WITH STROKE
    '\u0138': 'k',  # LATIN SMALL LETTER KRA
    '\u014b': 'n',  # LATIN SMALL LETTER ENG
    '\u0167': 't',  # LATIN SMALL LETTER T WITH STROKE
    '\u0185': 'b',  # LATIN SMALL LETTER TONE SIX
    '\u03b8': '0',  # GREEK SMALL LETTER THETA
    '\u03ba': 'k',  # GREEK SMALL LETTER KAPPA
    '\u03c7': 'x',  # GREEK SMALL LETTER CHI
    '\u03c9': 'w',  # GREEK SMALL LETTER OMEGA
    '\u03fc': 'p',  # GREEK RHO WITH STROKE SYMBOL
    '\u0432': 'b',  # CYRILLIC SMALL LETTER VE
    '\u0437': '3',  # CYRILLIC SMALL LETTER ZE
    '\u043a': 'k',  # CYRILLIC SMALL LETTER KA
    '\u043c': 'm',  # CYRILLIC SMALL LETTER EM
    '\u043d': 'h',  # CYRILLIC SMALL LETTER EN
    '\u043f': 'n',  # CYRILLIC SMALL LETTER PE
    '\u0442': 't',  # CYRILLIC SMALL LETTER TE
    '\u0448': 'w',  # CYRILLIC SMALL LETTER SHA
    '\u0449': 'w',  # CYRILLIC SMALL LETTER SHCHA
    '\u044c': 'b',  # CYRILLIC SMALL LETTER SOFT SIGN
    '\u0454': 'e',  # CYRILLIC SMALL LETTER UKRAINIAN IE
    '\u045b': 'h',  # CYRILLIC SMALL LETTER TSHE
    '\u048d': 'b',  # CYRILLIC SMALL LETTER SEMISOFT SIGN
    '\u048f': 'p',  # CYRILLIC SMALL LETTER ER WITH TICK
    '\u0491': 'r',  # CYRILLIC SMALL LETTER GHE WITH UPTURN
    '\u0493': 'f',  # CYRILLIC SMALL LETTER GHE WITH STROKE
    '\u0499': '3',  # CYRILLIC SMALL LETTER ZE WITH DESCENDER
    '\u049b': 'k',  # CYRILLIC SMALL LETTER KA WITH DESCENDER
    '\u049d': 'k',  # CYRILLIC SMALL LETTER KA WITH VERTICAL STROKE
    '\u049f': 'k',  # CYRILLIC SMALL LETTER KA WITH STROKE
    '\u04a1': 'k',  # CYRILLIC SMALL LETTER BASHKIR KA
    '\u04a3': 'h',  # CYRILLIC SMALL LETTER EN WITH DESCENDER
    '\u04a5': 'h',  # CYRILLIC SMALL LIGATURE EN GHE
    '\u04ab': 'c',  # CYRILLIC SMALL LETTER ES WITH DESCENDER
    '\u04ad': 't',  # CYRILLIC SMALL LETTER TE WITH DESCENDER
    '\u04b1': 'y',  # CYRILLIC SMALL LETTER STRAIGHT U WITH STROKE
    '\u04b3': 'x',  # CYRILLIC SMALL LETTER HA WITH DESCENDER
    '\u04bd': 'e',  # CYRILLIC SMALL LETTER ABKHASIAN CHE
    '\u04bf': 'e',  # CYRILLIC SMALL LETTER ABKHASIAN CHE WITH DESCENDER
    '\u04c4': 'k',  # CYRILLIC SMALL LETTER KA WITH HOOK
    '\u04c8': 'h',  # CYRILLIC SMALL LETTER EN WITH HOOK
    '\u04ca': 'h',  # CYRILLIC SMALL LETTER EN WITH TAIL
    '\u04ce': 'm',  # CYRILLIC SMALL LETTER EM WITH TAIL
    '\u04d5': 'ae',  # CYRILLIC SMALL LIGATURE A IE
    '\u04e1': '3',  # CYRILLIC SMALL LETTER ABKHASIAN DZE
    '\u04fb': 'f',  # CYRILLIC SMALL LETTER GHE WITH STROKE AND HOOK
    '\u04fd': 'x',  # CYRILLIC SMALL LETTER HA WITH HOOK
    '\u04ff': 'x',  # CYRILLIC SMALL LETTER HA WITH STROKE
    '\u0503': 'd',  # CYRILLIC SMALL LETTER KOMI DJE
    '\u050b': 'h',  # CYRILLIC SMALL LETTER KOMI NJE
    '\u050d': 'g',  # CYRILLIC SMALL LETTER KOMI SJE
    '\u050f': 't',  # CYRILLIC SMALL LETTER KOMI TJE
    '\u051f': 'k',  # CYRILLIC SMALL LETTER ALEUT KA
    '\u0525': 'n',  # CYRILLIC SMALL LETTER PE WITH DESCENDER
    '\u0527': 'h',  # CYRILLIC SMALL LETTER SHHA WITH DESCENDER
    '\u0529': 'h',  # CYRILLIC SMALL LETTER EN WITH LEFT HOOK
    '\u0573': '6',  # ARMENIAN SMALL LETTER CHEH
    '\u0577': '2',  # ARMENIAN SMALL LETTER SHA
    '\u05d7': 'n',  # HEBREW LETTER HET
    '\u0966': 'o',  # DEVANAGARI DIGIT ZERO
    '\u09e6': 'o',  # BENGALI DIGIT ZERO
    '\u09ed': 'q',  # BENGALI DIGIT SEVEN
    '\u0a66': 'o',  # GURMUKHI DIGIT ZERO
    '\u0a67': 'q',  # GURMUKHI DIGIT ONE
    '\u0ae6': 'o',  # GUJARATI DIGIT ZERO
    '\u0ae7': 'q',  # GUJARATI DIGIT ONE
    '\u0b30': 'o',  # ORIYA LETTER RA
    '\u0b66': 'o',  # ORIYA DIGIT ZERO
    '\u0ce6': 'o',  # KANNADA DIGIT ZERO
    '\u0d1f': 's',  # MALAYALAM LETTER TTA
    '\u0e01': 'n',  # THAI CHARACTER KO KAI
    '\u0e1a': 'u',  # THAI CHARACTER BO BAIMAI
    '\u0e1e': 'w',  # THAI CHARACTER PHO PHAN
    '\u0e1f': 'w',  # THAI CHARACTER FO FAN
    '\u0e23': 's',  # THAI CHARACTER RO RUA
    '\u0e9a': 'u',  # LAO LETTER BO
    '\u0e9e': 'w',  # LAO LETTER PHO TAM
    '\u0e9f': 'w',  # LAO LETTER FO SUNG
    '\u0ea3': 's',  # LAO LETTER LO LING
    '\u0eae': 's',  # LAO LETTER HO TAM
    '\u10d5': '3',  # GEORGIAN LETTER VIN
    '\u10de': '3',  # GEORGIAN LETTER PAR
    '\u10eb': 'd',  # GEORGIAN LETTER JIL
}

#: Latin letters with a stroke that diacritic removal maps too
STROKE_LETTERS = {
    '\xf8': 'o',  # LATIN SMALL LETTER O WITH STROKE
    '\u0111': 'd',  # LATIN SMALL LETTER D WITH STROKE
    '\u0142': 'l',  # LATIN SMALL LETTER L WITH STROKE
}

#: characters drawn like more than one Latin spelling
SEVERAL_READINGS = {
    '\xfe': ('b', 'p'),  # LATIN SMALL LETTER THORN
    '\u0153': ('ce', 'oe'),  # LATIN SMALL LIGATURE OE
}
