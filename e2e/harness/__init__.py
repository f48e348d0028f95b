"""The browser tests' harness: what a test does on the site and its game pages, defined
once (site.py: build, serve, Chromium, request log; pages.py: `GamePage`; dice.py; and each
game's own parts).  Test modules import it; none imports another test module."""
