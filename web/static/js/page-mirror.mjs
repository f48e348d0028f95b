// The page's side of the mirror (issue 24, Python in a worker): what the page sends the
// worker's Python when it starts (`tree`: the page's nodes, numbered), and what it does with
// the operations the worker's mirror records (`Applier`: web/worker/mirror.py says what each
// one means).  No page loads it yet: the worker that will send the operations is the next
// step.  e2e/test_mirror_applier.py replays the mirror's operations here and compares.
//
// Safe by construction: an operation makes elements and text nodes and sets attributes,
// never markup (no innerHTML, no insertAdjacentHTML); the methods it may call are a short
// list; an unknown operation or node throws before anything of its batch after it is done.

const SVG_NS = "http://www.w3.org/2000/svg";
/** The element methods an operation may call (mirror.py's CALLS). */
const CALLS = new Set(["focus", "blur", "showModal", "close", "scrollIntoView", "select", "click"]);
/** The live properties an operation may set (mirror.py's "pr"). */
const LIVE = new Set(["value", "checked"]);
/** What an event carries to the worker, besides its node and type. */
const EVENT_FIELDS = ["key", "altKey", "ctrlKey", "metaKey", "shiftKey", "clientX", "clientY", "detail"];

/** The document's nodes as the mirror's tree (`Document.from_tree`), numbered 1, 2, … in
 *  the same walk: an element is [tag, {attribute: value}, [children], live], a text node
 *  its text; comments are left out.  Returns {tree, nodes} (nodes[id] is the node). */
export function tree(doc = document) {
  const nodes = [doc];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      nodes.push(node);
      return node.data;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return null;
    nodes.push(node);
    const attrs = {};
    for (const a of node.attributes) attrs[a.name] = a.value;
    const kids = [];
    for (const child of node.childNodes) {
      const item = walk(child);
      if (item !== null) kids.push(item);
    }
    return [node.localName, attrs, kids, liveState(node)];
  };
  const items = [];
  for (const child of doc.childNodes) {
    const item = walk(child);
    if (item !== null) items.push(item);
  }
  return { tree: items, nodes };
}

/** What a person may have changed in a form control before the worker heard of it. */
export function liveState(node) {
  const tag = node.localName;
  if (tag === "input" && (node.type === "checkbox" || node.type === "radio")) {
    return { checked: node.checked };
  }
  if (tag === "input" || tag === "textarea" || tag === "select") return { value: node.value };
  return null;
}

export class Applier {
  /** `nodes` from `tree`; `send(message)` takes each event the worker listens to;
   *  `prevent(event)` says whether the page must call preventDefault (the worker hears of
   *  the event too late to): a form's submit always is; `prepare(target)` runs before an
   *  event is sent (the page may tell the worker of nodes its own scripts made). */
  constructor(nodes, send, prevent = () => false, prepare = () => {}) {
    this.nodes = nodes.slice();
    this.ids = new WeakMap(this.nodes.map((node, id) => [node, id]));
    this.send = send;
    this.prevent = prevent;
    this.prepare = prepare;  // called with an event's target before it is sent (its number made)
    this.sent = new WeakSet();  // an event bubbles past several listened nodes: sent once
  }

  node(id) {
    const node = this.nodes[id];
    if (node === undefined) throw new Error(`page-mirror: no node ${id}`);
    return node;
  }

  made(id, node) {
    if (this.nodes[id] !== undefined) throw new Error(`page-mirror: node ${id} made twice`);
    this.nodes[id] = node;
    this.ids.set(node, id);
  }

  apply(ops) {
    for (const op of ops) this.one(op);
  }

  one([kind, id, a, b]) {
    switch (kind) {
      case "el":
        return this.made(id, b === "svg" ? document.createElementNS(SVG_NS, a) : document.createElement(a));
      case "tx":
        return this.made(id, document.createTextNode(a));
      case "at":
        return b === null ? this.node(id).removeAttribute(a) : this.node(id).setAttribute(a, b);
      case "pr":
        if (!LIVE.has(a)) throw new Error(`page-mirror: property ${a}`);
        this.node(id)[a] = b;
        return undefined;
      case "in":
        this.node(id).insertBefore(this.node(a), b === null ? null : this.node(b));
        return undefined;
      case "rm":
        return this.node(id).remove();
      case "da":
        this.node(id).data = a;
        return undefined;
      case "st":
        return b === null ? this.node(id).style.removeProperty(a) : this.node(id).style.setProperty(a, b);
      case "do":
        if (!CALLS.has(a)) throw new Error(`page-mirror: method ${a}`);
        return this.node(id)[a](...(b || []));
      case "on":
        return this.listen(this.node(id), a);
      case "fr":  // nodes Python let go of: out of the tree for good
        for (const gone of a) delete this.nodes[gone];
        return undefined;
      default:
        throw new Error(`page-mirror: operation ${kind}`);
    }
  }

  listen(node, type) {
    node.addEventListener(type, (event) => {
      if (this.sent.has(event)) return;  // the worker's mirror bubbles it itself
      this.sent.add(event);
      if (type === "submit" || this.prevent(event)) event.preventDefault();
      const target = event.target;
      this.prepare(target);
      const id = this.ids.get(target);
      if (id === undefined) return;  // a node the worker does not know (none, in practice)
      const message = { node: id, type: event.type };
      for (const name of EVENT_FIELDS) if (event[name] !== undefined) message[name] = event[name];
      Object.assign(message, liveState(target) || {});
      // A dialog's `close` comes at the next animation frame (Chromium): whether it is open
      // again by then (Python opened it on a key pressed first; the mirror keeps it open).
      if (event.type === "close" && target.localName === "dialog") message.open = target.open;
      // The files picked (File objects: the sender reads them, see js/worker-page.mjs).
      if (target.localName === "input" && target.type === "file" && target.files) message.files = [...target.files];
      this.send(message);
    });
  }

  /** A node's number (for the page's own questions to name it). */
  idOf(node) {
    return this.ids.get(node);
  }
}
