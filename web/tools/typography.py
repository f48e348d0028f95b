"""French typography, as a rule the tests hold every text to: a no-break space (U+00A0)
before « : », a narrow one (U+202F) before « ; ! ? » (either counts before any of them), and
no-break spaces inside « guillemets », so that no line of the page, the rules or the
terminal starts with a colon or a lone mark.

`faults(text)` lists what breaks the rule.  tests/test_typography.py applies it to the
catalogues, the page's own strings and the templates; e2e/test_contrast.py to the text of
every screen as drawn.
"""

from __future__ import annotations

import re

#: An ordinary space before a high mark, or inside guillemets, is wrong in any text: no
#: language but French puts a space there.  A mark followed by a letter or a digit is not
#: prose ("12:30", "?pace=", "a:hover", "http://") and is left alone.
SPACED = re.compile(
    r" [:;!?»](?=[\s\"'<)\]]|$)"  # "Tour 3 : …", "Bravo !", "x »"
    r"|« "  # "« x"
)
#: No space at all before the mark is wrong in French text only (code and the maintainers'
#: English write "a; b", "Error: x").
GLUED = re.compile(
    r"(?<=[A-Za-zÀ-ÿ0-9)»…])[;!?](?=[\s\"'<]|$)"  # "Bravo!", "vraiment?"
    r"|(?<=[a-zà-ÿ)»])[:](?=[ \u00a0]|$)"  # "But: …"
)
#: What makes a string French text: an accented letter, or one of these words.
FRENCH_WORDS = frozenset("""le la les de des du un une et est pas il au aux pour sur avec dans
par qui que ne ni ou sa son ses leur joueur jetons dés partie lancer manche pions bravo""".split())
ACCENTED = re.compile(r"[À-ÖØ-öø-ÿŒœ«»]")


def is_french(text: str) -> bool:
    words = {w.strip(".,:;!?()«»\"'") for w in text.lower().split()}
    return bool(ACCENTED.search(text) or FRENCH_WORDS & words)


def faults(text: str, french: bool = True) -> list[str]:
    """The places in `text` that break the rule, each with a little of its context.
    `french`: the text is known to be French; otherwise a mark with no space before it
    counts only where the text reads as French."""
    found = list(SPACED.finditer(text))
    if french or is_french(text):
        found += GLUED.finditer(text)
    return [text[max(0, m.start() - 12): m.end() + 8] for m in found]


def spaced(text: str) -> str:
    """`text` with the rule applied where an ordinary space stands before a mark or inside
    guillemets: what the catalogues were given when the rule came (issue 20, item 11), and
    what tests/test_golden_records.py does to the words recorded before it."""
    text = re.sub(r" :(?=[\s\"'{<)\]\\]|$)", "\u00a0:", text)
    text = re.sub(r" ([;!?])(?=[\s\"'{<)\]\\]|$)", "\u202f\\1", text)
    return text.replace("« ", "«\u00a0").replace(" »", "\u00a0»")
