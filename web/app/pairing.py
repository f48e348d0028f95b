"""Two devices at one table: the pairing codes and the messages of the link between them.

Pure Python (no browser import), unit-tested with plain CPython (tests/test_pairing.py);
the page part is duo.py, the WebRTC part js/duo-link.js.

**A pairing code** carries one side of a WebRTC session description (SDP) small enough for a
QR code: only what the other side cannot guess.  The rest of the SDP is always the same for
one data channel and is rebuilt from a template (`sdp`), as fippo's minimal-webrtc does.

Kept, in binary, then in unpadded base64url (format 1)::

    byte 0      the format (1)
    byte 1      bit 0: an answer (else an offer); bits 1-2: the DTLS role (actpass, active,
                passive); bits 4-5: the number of candidates (1 to 3)
    ufrag       its length (one byte, 4 to 32) and its ASCII ice-chars
    pwd         its length (one byte, 22 to 64) and its ASCII ice-chars
    fingerprint the 32 bytes of the certificate's sha-256 fingerprint
    candidates  each: its kind (0: an mDNS name ``<uuid>.local``, its 16 bytes; 1: an IPv4
                address, 4 bytes; 2: an IPv6 address, 16 bytes) then its UDP port (2 bytes)

Chromium's offer with one candidate is 83 bytes, 111 characters.  No STUN or TURN server is
ever named: the candidates are the devices' own (host candidates), so both devices must
reach each other directly, on one Wi-Fi or a phone's hotspot.

A code comes from the other device, or from anyone: `decode` trusts nothing (its length, its
alphabet, every field) and raises `PairingError` with a message for the player.

**The messages** on the data channel are small JSON objects, read by `read_message` within
bounds (`MAX_MESSAGE`, the kinds and fields each kind may have); the record of a whole game
travels as replay-link data (replay.py), read back through the replay links' bounds.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import ipaddress
import json
import re
import uuid

from guard import BadStored, read_json

from pygames.messages import text

FORMAT = 1
KEY = "pair="
MAX_CODE = 400  # characters of a code (3 IPv6 candidates: ~180)
ROLES = ("actpass", "active", "passive")
KINDS = ("offer", "answer")
MAX_CANDIDATES = 3
_ICE_CHARS = re.compile(r"[A-Za-z0-9+/]+")
_B64 = re.compile(r"[A-Za-z0-9_-]+")
_MDNS = re.compile(r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.local", re.I)


class PairingError(ValueError):
    """A code or a description that cannot be used; the message is for the player."""


def _error(msg_id: str, **params) -> PairingError:
    return PairingError(text(msg_id, **params))


# --- a session description, reduced to what matters ------------------------------------


class Description:
    """The parts of one side's SDP that the other side needs."""

    def __init__(self, kind: str, ufrag: str, pwd: str, fingerprint: bytes, role: str, candidates: list):
        self.kind = kind  # "offer" or "answer"
        self.ufrag = ufrag
        self.pwd = pwd
        self.fingerprint = fingerprint  # 32 bytes (sha-256)
        self.role = role  # the DTLS role: actpass (an offer), active or passive (an answer)
        self.candidates = candidates  # [(address, port)], the address an mDNS name or an IP

    def __eq__(self, other):
        return isinstance(other, Description) and vars(self) == vars(other)

    def __repr__(self):
        return f"Description({self.kind}, {self.ufrag}, {self.role}, {self.candidates})"


def _candidate_rank(fields):
    """Host candidates first by their priority, as the browser would try them."""
    return -int(fields[3]) if fields[3].isdigit() else 0


def parse_sdp(sdp: str, kind: str) -> Description:
    """The description's parts from the browser's own SDP (of the type `kind`).  Up to
    MAX_CANDIDATES UDP host candidates are kept, highest priority first; none is an error
    (no network: nothing to pair over)."""
    if kind not in KINDS or not isinstance(sdp, str) or len(sdp) > 20_000:
        raise _error("site.duo.sdp_bad")
    values, candidates = {}, []
    for line in sdp.splitlines():
        line = line.strip()
        if not line.startswith("a="):
            continue
        name, _, value = line[2:].partition(":")
        if name == "candidate":
            fields = value.split()
            # foundation component transport priority address port "typ" type …
            if len(fields) >= 8 and fields[1] == "1" and fields[2].lower() == "udp" and fields[7] == "host":
                candidates.append(fields)
        elif name in ("ice-ufrag", "ice-pwd", "fingerprint", "setup") and name not in values:
            values[name] = value.strip()
    candidates.sort(key=_candidate_rank)
    kept = []
    for fields in candidates:
        address, port = fields[4], fields[5]
        if _address_kind(address) is not None and port.isdigit() and 0 < int(port) < 65536:
            if (address, int(port)) not in kept:
                kept.append((address, int(port)))
    if not kept:
        raise _error("site.duo.no_candidate")
    fingerprint = values.get("fingerprint", "").split()
    if len(fingerprint) != 2 or fingerprint[0].lower() != "sha-256":
        raise _error("site.duo.sdp_bad")
    try:
        digest = bytes.fromhex(fingerprint[1].replace(":", ""))
    except ValueError:
        raise _error("site.duo.sdp_bad") from None
    description = Description(kind, values.get("ice-ufrag", ""), values.get("ice-pwd", ""), digest,
                              values.get("setup", ""), kept[:MAX_CANDIDATES])
    _check(description)
    return description


def _address_kind(address: str) -> int | None:
    if _MDNS.fullmatch(address):
        return 0
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    return 1 if ip.version == 4 else 2


def _check(d: Description) -> None:
    """Every field within the bounds of the format (else the code could not carry it)."""
    ok = (d.kind in KINDS and isinstance(d.ufrag, str) and 4 <= len(d.ufrag) <= 32 and _ICE_CHARS.fullmatch(d.ufrag)
          and isinstance(d.pwd, str) and 22 <= len(d.pwd) <= 64 and _ICE_CHARS.fullmatch(d.pwd)
          and isinstance(d.fingerprint, bytes) and len(d.fingerprint) == 32
          and d.role == ("actpass" if d.kind == "offer" else d.role) and d.role in ROLES
          and (d.kind == "offer" or d.role != "actpass")
          and 1 <= len(d.candidates) <= MAX_CANDIDATES)
    if not ok:
        raise _error("site.duo.sdp_bad")


def sdp(d: Description) -> str:
    """The SDP of a description, rebuilt from the one template of a data channel."""
    lines = ["v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0", "a=msid-semantic: WMS",
             "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0"]
    for n, (address, port) in enumerate(d.candidates):
        priority = (126 << 24) | ((65535 - n) << 8) | 255  # RFC 8445: a host candidate
        lines.append(f"a=candidate:{n + 1} 1 udp {priority} {address} {port} typ host")
    lines += [
        "a=end-of-candidates",
        f"a=ice-ufrag:{d.ufrag}",
        f"a=ice-pwd:{d.pwd}",
        "a=ice-options:trickle",
        "a=fingerprint:sha-256 " + ":".join(f"{b:02X}" for b in d.fingerprint),
        f"a=setup:{d.role}",
        "a=mid:0",
        "a=sctp-port:5000",
        "a=max-message-size:262144",
    ]
    return "\r\n".join(lines) + "\r\n"


# --- the code ---------------------------------------------------------------------------------


def pack(d: Description) -> bytes:
    _check(d)
    out = bytearray([FORMAT, (KINDS.index(d.kind)) | (ROLES.index(d.role) << 1) | (len(d.candidates) << 4)])
    for value in (d.ufrag, d.pwd):
        out.append(len(value))
        out += value.encode("ascii")
    out += d.fingerprint
    for address, port in d.candidates:
        kind = _address_kind(address)
        out.append(kind)
        if kind == 0:
            out += uuid.UUID(_MDNS.fullmatch(address).group(1)).bytes
        else:
            out += ipaddress.ip_address(address).packed
        out += port.to_bytes(2, "big")
    return bytes(out)


def unpack(data: bytes) -> Description:
    """The description in a code's bytes; PairingError for anything malformed."""
    bad = _error("site.duo.code_bad")
    if len(data) < 2 or data[0] != FORMAT:
        raise _error("site.duo.code_other") if data[:1] and data[0] > FORMAT else bad
    flags = data[1]
    count = flags >> 4
    if flags & 0b1000 or not 1 <= count <= MAX_CANDIDATES or (flags >> 1) & 0b11 == 3:
        raise bad
    kind, role = KINDS[flags & 1], ROLES[(flags >> 1) & 0b11]
    at = 2
    fields = []
    for _ in range(2):
        if at >= len(data):
            raise bad
        n = data[at]
        chunk = data[at + 1: at + 1 + n]
        if len(chunk) != n:
            raise bad
        try:
            fields.append(chunk.decode("ascii"))
        except UnicodeDecodeError:
            raise bad from None
        at += 1 + n
    fingerprint = data[at: at + 32]
    at += 32
    candidates = []
    for _ in range(count):
        if at >= len(data):
            raise bad
        address_kind = data[at]
        size = {0: 16, 1: 4, 2: 16}.get(address_kind)
        if size is None or at + 1 + size + 2 > len(data):
            raise bad
        raw = data[at + 1: at + 1 + size]
        address = f"{uuid.UUID(bytes=raw)}.local" if address_kind == 0 else str(ipaddress.ip_address(raw))
        port = int.from_bytes(data[at + 1 + size: at + 3 + size], "big")
        if port == 0:
            raise bad
        candidates.append((address, port))
        at += 3 + size
    if at != len(data):
        raise bad
    d = Description(kind, fields[0], fields[1], bytes(fingerprint), role, candidates)
    try:
        _check(d)
    except PairingError:
        raise bad from None
    return d


def encode(d: Description) -> str:
    """The code of a description: its bytes in unpadded base64url."""
    return base64.urlsafe_b64encode(pack(d)).decode("ascii").rstrip("=")


def code_of(written) -> str:
    """The code in what a person pasted or a camera read: a bare code, or a pairing link
    (``…#pair=<code>``); blanks dropped.  PairingError if it is none."""
    if not isinstance(written, str) or len(written) > 4_000:
        raise _error("site.duo.code_bad")
    written = "".join(written.split())
    if "#" in written:
        written = written.split("#", 1)[1]
    if written.startswith(KEY):
        written = written[len(KEY):]
    if not written:
        raise _error("site.duo.code_empty")
    if len(written) > MAX_CODE or not _B64.fullmatch(written):
        raise _error("site.duo.code_bad")
    return written


def decode(written, kind: str | None = None) -> Description:
    """The description in a code (or a link to it); `kind`: the kind wanted ("offer" from
    the host, "answer" from the guest), another is refused with its own reason."""
    code = code_of(written)
    try:
        data = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    except (binascii.Error, ValueError):
        raise _error("site.duo.code_bad") from None
    d = unpack(data)
    if kind is not None and d.kind != kind:
        raise _error("site.duo.code_is_offer" if d.kind == "offer" else "site.duo.code_is_answer")
    return d


def link(page_url: str, code: str) -> str:
    """The link of a host's code: the page itself, the code in its fragment (never sent)."""
    return page_url.split("#", 1)[0] + "#" + KEY + code


def from_fragment(fragment) -> str | None:
    """The code in a URL fragment (``#pair=…``), or None."""
    if not isinstance(fragment, str):
        return None
    fragment = fragment[1:] if fragment.startswith("#") else fragment
    return fragment[len(KEY):] if fragment.startswith(KEY) else None


# --- the messages on the data channel ---------------------------------------------------------

MAX_MESSAGE = 64_000  # characters of one message (a game's record, compressed: a few kB)
MAX_NOTATION = 120  # characters of one move's notation ("keep 6 6 6 @1,2,3": 20)
MAX_BATCH = 64  # moves in one message (a move and the dice it made fall; the 421's Charge auto)
PROTOCOL = 1

#: Each kind of message and the fields it may carry, with their types (all required).
#: hello: the guest's first word (its device, and its own record of this game if it has one:
#: "" if not); game: the whole record (replay-link data); moves: moves played since the
#: first `n` moves, and the hash of the record after them; move: a guest's move at ply `n`;
#: undo: Annuler asked at ply `n`; refused: the host's reason for refusing a move; sync: the
#: guest asks for the whole record; bye: the other device stops.
KINDS_OF_MESSAGES = {
    "hello": {"v": int, "device": str, "record": str},
    "game": {"record": str},
    "moves": {"n": int, "moves": list, "hash": str},
    "move": {"n": int, "move": str},
    "undo": {"n": int},
    "refused": {"why": str, "n": int},
    "sync": {},
    "bye": {},
}


class BadMessage(ValueError):
    """A message from the other device that is not one (never shown as is)."""


def message(kind: str, **fields) -> str:
    """A message's text (the page's own: checked as the other side will read it)."""
    raw = json.dumps({"t": kind, **fields}, separators=(",", ":"), ensure_ascii=False)
    read_message(raw)
    return raw


def read_message(raw) -> dict:
    """A message from the other device: its size, its JSON, its kind and each field are
    checked; anything else raises BadMessage."""
    if not isinstance(raw, str) or len(raw) > MAX_MESSAGE:
        raise BadMessage("size")
    try:  # (its nesting counted first: a deep one would overflow Pyodide's stack)
        value = read_json(raw, MAX_MESSAGE, 3)
    except BadStored:
        raise BadMessage("json") from None
    if not isinstance(value, dict):
        raise BadMessage("not an object")
    kind = value.get("t")
    fields = KINDS_OF_MESSAGES.get(kind) if isinstance(kind, str) else None
    if fields is None or set(value) != {"t", *fields}:
        raise BadMessage("kind")
    for name, kind_of in fields.items():
        field = value[name]
        if type(field) is not kind_of:  # (a bool is no int)
            raise BadMessage(name)
        if kind_of is int and not 0 <= field <= 1_000_000:
            raise BadMessage(name)
    if kind == "moves" and not (1 <= len(value["moves"]) <= MAX_BATCH and all(
            isinstance(m, str) and 0 < len(m) <= MAX_NOTATION for m in value["moves"])):
        raise BadMessage("moves")
    if kind == "move" and not 0 < len(value["move"]) <= MAX_NOTATION:
        raise BadMessage("move")
    if kind == "refused" and len(value["why"]) > 600:
        raise BadMessage("why")
    if kind == "hello" and not (len(value["device"]) <= 32):
        raise BadMessage("device")
    return value


def record_hash(notations) -> str:
    """The hash of a game's moves so far (their notations): both devices compare theirs."""
    digest = hashlib.sha256("\n".join(notations).encode("utf-8")).hexdigest()
    return digest[:16]


__all__ = ["KEY", "BadMessage", "Description", "PairingError", "code_of", "decode", "encode", "from_fragment",
           "link", "message", "pack", "parse_sdp", "read_message", "record_hash", "sdp", "unpack"]
