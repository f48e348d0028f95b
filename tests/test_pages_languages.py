"""The pages in each language (issue 21, web/tools/pages.py): French at the root as before,
English in en/, the pseudo-language in qps/ (tests only); each with its <html lang>, its
catalogue, its versions (hreflang) and relative URLs that work from its directory."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "web" / "tools"))
import build  # noqa: E402
import pages  # noqa: E402

SNAPSHOT = f"{build.PYODIDE_DIR}/snapshot-0123456789abcdef.bin.xz"


@pytest.fixture(scope="module")
def written():
    return pages.render_pages(build.VENDOR, SNAPSHOT)


def catalogue_of(text):
    return json.loads(re.search(r'<script type="application/json" id="catalogue">(.*?)</script>', text,
                                re.S).group(1))


def test_every_page_in_every_language(written):
    names = {n for n in written if "/" not in n}
    assert {"index.html", "yams.html", "embed-yams.html"} <= names
    for directory in ("en/", "qps/"):
        assert {directory + n for n in names} <= set(written)


@pytest.mark.parametrize("directory, lang, code", [("", "fr", "fr"), ("en/", "en", "en"), ("qps/", "en-XA", "qps")])
def test_lang_and_catalogue(written, directory, lang, code):
    for name in ("index.html", "yams.html", "embed-yams.html"):
        text = written[directory + name]
        assert f'<html lang="{lang}"' in text
        assert catalogue_of(text)["language"] == code
        # the catalogue comes before the scripts that speak, and js/words.js right after it
        after = "js/theme.js" if name == "index.html" else 'js/setup-early.js" fetchpriority'
        after = ('src="' if name == "index.html" else '<script src="') + "../" * directory.count("/") + after
        assert text.index('id="catalogue"') < text.index("js/words.js") < text.index(after)


def test_hreflang_between_the_two_versions_not_the_pseudo_language(written):
    fr, en = written["yams.html"], written["en/yams.html"]
    assert '<link rel="alternate" hreflang="en" href="en/yams.html">' in fr
    assert '<link rel="alternate" hreflang="fr" href="../yams.html">' in en
    assert '<link rel="alternate" hreflang="x-default" href="../yams.html">' in en
    assert '<link rel="alternate" hreflang="en" href="en/">' in written["index.html"]
    assert '<link rel="alternate" hreflang="fr" href="../">' in written["en/index.html"]
    for text in (fr, en, written["index.html"]):
        assert "qps" not in text.replace(json.dumps(catalogue_of(text), ensure_ascii=False), "")
    assert 'hreflang=' not in written["qps/yams.html"]
    # the switch: the other language, named in itself
    named = r'[^>]*><span class="language-name">{}</span></a>'
    assert re.search(r'<a class="language-switch" href="en/yams.html" hreflang="en" lang="en"'
                     + named.format("English"), fr)
    assert re.search(r'<a class="language-switch" href="../yams.html" hreflang="fr" lang="fr"'
                     + named.format("Français"), en)


def test_hreflang_by_full_url_where_the_site_is_deployed():
    """With the site's URL (build.py --url, from GitHub Pages), the versions are full URLs,
    as search engines want them; js/words.js reads the relative ones (data-href)."""
    site = "https://owner.github.io/pygames/"
    written = pages.render_pages(build.VENDOR, SNAPSHOT, site_url=site.rstrip("/"))
    fr, en = written["yams.html"], written["en/yams.html"]
    assert (f'<link rel="alternate" hreflang="en" href="{site}en/yams.html" data-href="en/yams.html">'
            in fr)
    assert f'<link rel="alternate" hreflang="fr" href="{site}yams.html" data-href="../yams.html">' in en
    assert (f'<link rel="alternate" hreflang="x-default" href="{site}yams.html"'
            f' data-href="../yams.html">' in en)
    assert f'<link rel="alternate" hreflang="en" href="{site}en/" data-href="en/">' in written["index.html"]
    assert f'<link rel="alternate" hreflang="fr" href="{site}" data-href="../">' in written["en/index.html"]
    assert 'hreflang=' not in written["qps/yams.html"]
    # the switch stays relative
    assert '<a class="language-switch" href="en/yams.html"' in fr


def test_build_refuses_a_site_url_that_is_not_one(tmp_path):
    with pytest.raises(SystemExit, match="--url"):
        build.build(tmp_path / "out", url="owner.github.io/pygames")


def test_relative_urls_work_from_en(written):
    text = written["en/yams.html"]
    for url in re.findall(r'(?:src|href)="([^"#]+)"', text):
        if url.startswith(("../", "http")) or url in ("./", "manifest.webmanifest") or url.endswith(".html") \
                or url.startswith("en/"):
            continue
        pytest.fail(f"en/yams.html: {url} does not lead to the site's root")
    assert 'config="pyscript.json"' in text  # en/pyscript.json, written by the build
    config = pages.pyscript_config({"interpreter": "./js/pyodide-fast.mjs"}, pages.SITE_LANGUAGES[1])
    assert config["interpreter"] == "../js/pyodide-fast.mjs"
    assert f'"../{SNAPSHOT}"' in text  # the early snapshot read, from the root


@pytest.fixture(scope="module")
def bare():
    """The pages with the games' own parts (web/games/<id>/table.html, rules.html, page.json's
    texts: another domain's) left out: the templates' words only."""
    from jinja2 import ChoiceLoader, DictLoader

    real = pages.environment

    def environment():
        env = real()
        stubs = {f"games/{f.id}/{part}": "" for f in pages.paged(pages.facts.families())
                 for part in ("table.html", "rules.html")}
        env.loader = ChoiceLoader([DictLoader(stubs), env.loader])
        return env

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pages, "environment", environment)
        mp.setattr(pages, "page_facts", lambda family: {"description": "", "rules_title": "",
                                                         "preferences": ["confirm_zero"]})
        yield pages.render_pages(build.VENDOR, SNAPSHOT)


def test_the_english_templates_say_no_french(bare):
    """The templates' own words on the English pages are English: nothing of the pages
    domain's French (entries that read the same in both, as "Menu", aside)."""
    written = bare
    fr = pages.page_catalogue("fr")["messages"]
    en = pages.page_catalogue("en")["messages"]
    # (the switch's title is said in the language it leads to: "Cette page en français")
    own = {k: v for k, v in fr.items() if k.startswith(("page.", "home.", "js."))
           and isinstance(v, str) and en.get(k) != v and k != "page.language.title"}
    assert own, "the pages domain"
    for name in ("en/index.html", "en/yams.html", "en/embed-yams.html"):
        text = written[name]
        body = text.replace(re.search(r'id="catalogue">.*?</script>', text, re.S).group(0), "")
        body = re.sub(r"<!--.*?-->", "", body, flags=re.S)  # the maintainers' notes
        for key, french in own.items():
            plain = french.split("{")[0].strip()
            if len(plain) > 7:  # (short pieces, "Joueur", are other domains' words too)
                assert plain not in body, (name, key, plain)


def test_french_pages_unchanged_in_words(written):
    assert "<title>pygames — jeux de dés en famille</title>" in written["index.html"]
    assert ">Commencer la partie</button>" in written["yams.html"]
    assert 'aria-label="Joueur 1\u00a0: humain ou ordinateur"' in written["yams.html"]


def test_manifests(written):
    manifests = {name: json.loads(text) for name, text in pages.manifests().items()}
    assert manifests["manifest.webmanifest"]["lang"] == "fr"
    assert manifests["manifest.webmanifest"]["scope"] == "./"
    en = manifests["en/manifest.webmanifest"]
    assert en["lang"] == "en" and en["scope"] == "../" and en["short_name"] == "Dice games"
    assert all(i["src"].startswith("../icons/") for i in en["icons"])


def test_embed_map_per_language():
    embed = build.embed_pages()
    assert embed["reference"] == "fr"
    assert embed["languages"]["fr"]["yams"]["file"] == "embed-yams.html"
    assert embed["languages"]["en"]["yams"]["file"] == "en/embed-yams.html"
    assert "{kind}" in embed["unknown"]["en"]


def test_a_game_page_carries_its_own_game_words_not_the_others(written):
    """Each game page's catalogue leaves out the other games' words and the command line's
    (pages.page_words); the home page keeps them all (its cards name every game)."""
    full = pages.page_catalogue("en")["messages"]
    yams = catalogue_of(written["en/yams.html"])["messages"]
    landais = catalogue_of(written["en/embed-de-landais.html"])["messages"]
    assert catalogue_of(written["en/index.html"])["messages"] == full
    assert "yams.box.full" in yams and any(k.startswith("view.yams.") for k in yams)
    assert not [k for k in yams if k.startswith(("421.", "view.421.", "rules.landais.", "cli."))]
    # every game's name stays: a replay link of another game says which game it is
    assert "game.yahtzee.title" in landais and "family.linotte.title" in yams
    assert any(k.startswith("rules.landais.") for k in landais) and "site.setup.start" in landais
    assert len(yams) < 0.7 * len(full)


# what each game page runs of its own (the rest of web/app and pygames is shared)
PAGE_CODE = {"yams": ("yams_view.py", "yams"), "421": ("le421_view.py", "le421"),
             "linotte": ("linotte_view.py", "linotte"), "de-landais": ("landais_view.py", "landais")}


@pytest.mark.parametrize("family", sorted(PAGE_CODE))
def test_a_game_page_carries_every_word_its_code_names(family):
    """Every message id written out in the code a game page runs (the shared web/app and
    pygames modules, its own view and its own rules package; not the command line) is in that
    page's catalogue: a word of another game's that a view borrows would read as its id."""
    from support import python_strings

    full = pages.page_catalogue("fr")
    kept = pages.page_words(full, f"{family}.html")["messages"]
    view, package = PAGE_CODE[family]
    others = [v for f, v in PAGE_CODE.items() if f != family]
    code = [p for p in (ROOT / "web" / "app").glob("*.py") if p.name not in {v for v, _ in others}]
    code += [p for p in (ROOT / "pygames").glob("*.py") if p.name not in {"cli.py", "__main__.py"}]
    code += [p for p in (ROOT / "pygames" / package).glob("*.py") if p.name != "cli.py"]
    named = {(p.relative_to(ROOT).as_posix(), text) for p in code for _, text in python_strings(p)
             if text in full["messages"]}
    assert len(named) > 50
    assert sorted((where, text) for where, text in named if text not in kept) == []
