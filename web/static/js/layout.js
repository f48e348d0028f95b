// What only the page can measure (Python's drawing holds no layout: web/worker/mirror.py).
// On a phone the dice panel stays at the top while the page scrolls (style.css), and the
// Yams sheet's column heads stick just below it: --play-h is the panel's height, followed
// by a ResizeObserver as the panel changes (a throw's hint, a new turn, the window turned).
// While the advisor's panel is open the dice panel scrolls away, and the heads go to the top
// (style.css, `.play.advising`).
const play = document.querySelector("#table .play");
if (play && "ResizeObserver" in window) {
  const root = document.documentElement.style;
  new ResizeObserver(() => root.setProperty("--play-h", `${play.offsetHeight}px`)).observe(play);
}
