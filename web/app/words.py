"""The page's own small words and numbers, in one place (the views' labels, counts and
figures), until the English catalogue takes them over: a count with its noun, a number
with French digit grouping, a score with its sign, a probability in per cent."""

NBSP, THIN = "\u00a0", "\u202f"


def plural(n, word):
    """"1 point", "2 points" (French: 0 and 1 singular)."""
    return f"{n} {word}{'s' if abs(n) > 1 else ''}"


def number(n):
    """2150 → "2 150" (thin no-break space), −150 with a true minus sign."""
    return ("−" if n < 0 else "") + f"{abs(n):,}".replace(",", THIN)


def signed(n):
    return ("+" if n > 0 else "") + number(n)


def decimal(value, places=1):
    """254.6 → "254,6"."""
    return f"{value:.{places}f}".replace(".", ",")


def percent(p):
    return decimal(100 * p) + NBSP + "%"
