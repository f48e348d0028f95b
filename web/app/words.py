"""The page's own small numbers, in one place (the views' labels, counts and figures), in the
language of the page: a number with its digit grouping, a score with its sign, a decimal,
a probability in per cent, each written as the catalogue says (``format.thousands``,
``format.decimal``, ``format.percent``, core domain: "2 150", "254,6", "12,5 %" in French,
"2,150", "254.6", "12.5%" in English).

A count with its noun is a catalogue plural (``text("count.points", n=3)``), never built
here: `plural` stays for the views that still call it, French only, and is deprecated.
Every function reads the catalogue when it is called (never at import time: the page's
catalogue is installed after the memory snapshot, shell.speak)."""

from pygames.messages import text, word

NBSP, THIN = "\u00a0", "\u202f"


def plural(n, noun):
    """Deprecated (French only): "1 point", "2 points".  Use a catalogue plural instead,
    ``text("count.points", n=n)``."""
    return f"{n} {noun}{'s' if abs(n) > 1 else ''}"


def number(n):
    """2150 → "2 150" (the catalogue's thousands separator: a narrow no-break space in
    French, a comma in English), −150 with a true minus sign."""
    return ("−" if n < 0 else "") + f"{abs(n):,}".replace(",", word("format.thousands"))


def signed(n):
    return ("+" if n > 0 else "") + number(n)


def decimal(value, places=1):
    """254.6 → "254,6" in French, "254.6" in English (``format.decimal``)."""
    return f"{value:.{places}f}".replace(".", word("format.decimal"))


def percent(p):
    """0.125 → "12,5 %" in French, "12.5%" in English (``format.percent``)."""
    return text("format.percent", n=decimal(100 * p))
