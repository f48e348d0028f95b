// The header's "Menu" on narrow screens (a phone upright or on its side, a small tablet):
// the site's tools (Nouvelle partie, Partager, Règles, Stats, Intégrer, Son, Thème) fold
// under one button so that the header keeps one row; style.css shows the button and folds
// the tools only there ("header menu"). A disclosure: the button's aria-expanded says
// whether the tools are shown. Escape or a click elsewhere folds them again; a dialog
// opened from the menu leaves it open, so that the focus comes back to its button.
// Plain JS, so it works before Python has loaded.

const header = document.querySelector("header.site");
const toggle = document.getElementById("menu-toggle");

function setOpen(open, focusToggle = false) {
  toggle.setAttribute("aria-expanded", String(open));
  header.toggleAttribute("data-menu-open", open);
  if (focusToggle) toggle.focus();
}

if (header && toggle) {
  toggle.addEventListener("click", () => setOpen(toggle.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !header.hasAttribute("data-menu-open")) return;
    if (event.target instanceof Element && event.target.closest("dialog")) return;
    setOpen(false, header.contains(document.activeElement));
  });
  document.addEventListener("click", (event) => {
    const target = event.target;
    if (!header.hasAttribute("data-menu-open") || !(target instanceof Element)) return;
    if (header.contains(target) || target.closest("dialog")) return;
    setOpen(false);
  });
}
