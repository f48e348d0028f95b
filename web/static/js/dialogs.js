// Every modal dialog of the page (Règles, Intégrer, and any added later): a click on its
// backdrop closes it, as Escape does. Plain JS, so it works before Python has loaded. The
// site's questions (web/app/ask.py, table_tools.py's confirmation) count a close with no
// answer as cancelled: Python measures nothing.
// A modal <dialog> fills its box and the backdrop is outside it: a click whose point is
// outside the dialog's box is a click on the backdrop. Both the press and the release must
// be outside, so that selecting text inside and letting go outside keeps the dialog open.

function outside(dialog, event) {
  const box = dialog.getBoundingClientRect();
  return event.clientX < box.left || event.clientX > box.right
    || event.clientY < box.top || event.clientY > box.bottom;
}

let pressedOutside = null;  // the dialog whose backdrop the pointer went down on

document.addEventListener("pointerdown", (event) => {
  const dialog = event.target;
  pressedOutside = dialog instanceof HTMLDialogElement && dialog.open && dialog.matches(":modal")
    && outside(dialog, event) ? dialog : null;
});

document.addEventListener("click", (event) => {
  const dialog = event.target;
  // (A click made with a key has no point: detail 0, and its target is the control.)
  if (dialog instanceof HTMLDialogElement && dialog === pressedOutside && dialog.open
      && event.detail > 0 && outside(dialog, event)) {
    dialog.close();
  }
  pressedOutside = null;
});
