"""Two devices at one table (web/app/pairing.py): a browser's SDP becomes a code small enough
for a QR code and comes back as an SDP the other browser accepts (golden SDPs of Chromium and
Firefox, round trips over every field), and nothing another device or a person types gets past
the bounds: truncated, padded, forged or hostile codes, and the messages of the data channel."""

from __future__ import annotations

import base64
import json
import random

import pairing
import pytest
from pairing import BadMessage, PairingError

#: Chromium 14x, one data channel, iceServers: [] (two host candidates: mDNS names).
CHROMIUM_OFFER = """v=0
o=- 2603525143250430841 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0
a=extmap-allow-mixed
a=msid-semantic: WMS
m=application 9 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 0.0.0.0
a=candidate:4071797681 1 udp 2113937151 b634b21a-e9ac-477b-8847-5926c8e4deae.local 43930 typ host generation 0 \
network-cost 999
a=candidate:970224209 1 udp 2113942271 a421f8d1-7595-4695-b4aa-7f73ef3466b1.local 55307 typ host generation 0 \
network-cost 999
a=ice-ufrag:e2mH
a=ice-pwd:/vvt2QRhvZWRvNJyD24TotYI
a=ice-options:trickle
a=fingerprint:sha-256 5E:B9:D6:50:93:E2:93:F5:5E:A9:48:6E:F2:4F:3F:9B:54:96:60:2D:97:AC:C3:CE:E0:D8:B6:8C:6E:C0:FC:D3
a=setup:actpass
a=mid:0
a=sctp-port:5000
a=max-message-size:262144
""".replace("\n", "\r\n")

CHROMIUM_ANSWER = """v=0
o=- 8781093971843174992 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0
a=extmap-allow-mixed
a=msid-semantic: WMS
m=application 9 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 0.0.0.0
a=candidate:4108691167 1 udp 2113937151 b634b21a-e9ac-477b-8847-5926c8e4deae.local 49807 typ host generation 0 \
network-cost 999
a=candidate:1065576255 1 udp 2113942271 a421f8d1-7595-4695-b4aa-7f73ef3466b1.local 35089 typ host generation 0 \
network-cost 999
a=ice-ufrag:UIw4
a=ice-pwd:61mYNcRYAKa4uP//L88IK4Gq
a=ice-options:trickle
a=fingerprint:sha-256 69:35:37:DA:3F:E6:50:FE:D3:1E:9A:90:BF:67:0C:85:DD:4B:A5:9F:5C:FD:E7:8B:3B:0A:DA:50:FB:B7:7A:4A
a=setup:active
a=mid:0
a=sctp-port:5000
a=max-message-size:262144
"""

#: Firefox style: longer ufrag and pwd (hex), an IPv4 host candidate, a TCP one, a srflx one.
FIREFOX_OFFER = """v=0
o=mozilla...THIS_IS_SDPARTA-99.0 5046335462397040312 0 IN IP4 0.0.0.0
s=-
t=0 0
a=fingerprint:sha-256 0F:6A:53:8B:8C:21:B5:06:0E:F0:2D:57:44:05:44:1F:12:8D:50:FC:7C:A8:42:EB:25:F8:0F:E4:F2:2B:9D:B2
a=group:BUNDLE 0
a=ice-options:trickle
a=msid-semantic:WMS *
m=application 51342 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 192.168.1.23
a=candidate:0 1 UDP 2122252543 192.168.1.23 51342 typ host
a=candidate:1 1 TCP 2105524479 192.168.1.23 9 typ host tcptype active
a=candidate:2 1 UDP 1686052863 203.0.113.9 51342 typ srflx raddr 192.168.1.23 rport 51342
a=sendrecv
a=end-of-candidates
a=ice-pwd:8c4ab0f5d3a1e9c7b2f60e1d9a8c7b6f
a=ice-ufrag:3f9a1c2e
a=mid:0
a=setup:actpass
a=sctp-port:5000
a=max-message-size:1073741823
"""


def test_a_chromium_offer_fits_a_small_qr_code():
    d = pairing.parse_sdp(CHROMIUM_OFFER, "offer")
    assert d.ufrag == "e2mH" and d.pwd == "/vvt2QRhvZWRvNJyD24TotYI" and d.role == "actpass"
    assert d.fingerprint.hex().upper().startswith("5EB9D650")
    # the higher priority first (the IPv6 one, in Chromium's own order)
    assert d.candidates == [("a421f8d1-7595-4695-b4aa-7f73ef3466b1.local", 55307),
                            ("b634b21a-e9ac-477b-8847-5926c8e4deae.local", 43930)]
    code = pairing.encode(d)
    assert len(pairing.pack(d)) == 102 and len(code) == 136
    one = pairing.Description("offer", d.ufrag, d.pwd, d.fingerprint, d.role, d.candidates[:1])
    assert len(pairing.pack(one)) == 83 and len(pairing.encode(one)) == 111
    assert pairing.decode(code, "offer") == d


def test_the_rebuilt_sdp_says_what_the_browser_needs():
    d = pairing.decode(pairing.encode(pairing.parse_sdp(CHROMIUM_ANSWER, "answer")), "answer")
    sdp = pairing.sdp(d)
    lines = sdp.split("\r\n")
    assert sdp.endswith("\r\n") and lines[0] == "v=0"
    assert "m=application 9 UDP/DTLS/SCTP webrtc-datachannel" in lines
    assert "a=ice-ufrag:UIw4" in lines and "a=ice-pwd:61mYNcRYAKa4uP//L88IK4Gq" in lines
    assert ("a=fingerprint:sha-256 69:35:37:DA:3F:E6:50:FE:D3:1E:9A:90:BF:67:0C:85:DD:4B:A5:9F:5C:FD:E7:8B:3B:"
            "0A:DA:50:FB:B7:7A:4A") in lines
    assert "a=setup:active" in lines and "a=mid:0" in lines and "a=sctp-port:5000" in lines
    candidates = [line for line in lines if line.startswith("a=candidate:")]
    assert candidates[0].endswith(" a421f8d1-7595-4695-b4aa-7f73ef3466b1.local 35089 typ host")
    assert len(candidates) == 2
    # the rebuilt SDP reads back to the same description
    assert pairing.parse_sdp(sdp, "answer") == d
    # and names no server: no STUN, no TURN, no other address than the candidates'
    assert "stun" not in sdp.lower() and "turn" not in sdp.lower()


def test_firefox_keeps_its_udp_host_candidate_only():
    d = pairing.parse_sdp(FIREFOX_OFFER, "offer")
    assert d.candidates == [("192.168.1.23", 51342)]
    assert d.ufrag == "3f9a1c2e" and len(d.pwd) == 32
    assert pairing.decode(pairing.encode(d)) == d


def test_no_candidate_is_said_as_no_network():
    no_candidate = "\r\n".join(line for line in CHROMIUM_OFFER.split("\r\n") if "candidate" not in line)
    with pytest.raises(PairingError) as err:
        pairing.parse_sdp(no_candidate, "offer")
    assert "réseau" in str(err.value)


@pytest.mark.parametrize("address", ["10.0.0.7", "fd00::2", "2001:db8::1",
                                     "0f0e0d0c-0b0a-4908-8706-050403020100.local"])
@pytest.mark.parametrize("role,kind", [("actpass", "offer"), ("active", "answer"), ("passive", "answer")])
def test_round_trips(address, role, kind):
    rng = random.Random(address + role)
    ice = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    for ufrag_len, pwd_len, count in ((4, 22, 1), (32, 64, 3), (8, 32, 2)):
        d = pairing.Description(kind, "".join(rng.choice(ice) for _ in range(ufrag_len)),
                                "".join(rng.choice(ice) for _ in range(pwd_len)), rng.randbytes(32), role,
                                [(address, rng.randrange(1, 65536)) for _ in range(count)])
        code = pairing.encode(d)
        assert set(code) <= set(ice[:-2] + "-_") and len(code) <= pairing.MAX_CODE
        assert pairing.decode(code, kind) == d
        assert pairing.decode("  " + pairing.link("https://x.example/yams.html?a=1#old", code) + "\n") == d
        assert pairing.parse_sdp(pairing.sdp(d), kind) == d


def test_links_and_fragments():
    d = pairing.parse_sdp(CHROMIUM_OFFER, "offer")
    code = pairing.encode(d)
    url = pairing.link("http://127.0.0.1:8000/yams.html#replay=1.abc", code)
    assert url == "http://127.0.0.1:8000/yams.html#pair=" + code
    assert pairing.from_fragment("#pair=" + code) == code
    assert pairing.from_fragment("#play=1.x") is None and pairing.from_fragment(None) is None
    assert pairing.code_of(code[:60] + "\n " + code[60:]) == code  # a code copied over two lines


def test_the_wrong_side_is_said():
    offer = pairing.encode(pairing.parse_sdp(CHROMIUM_OFFER, "offer"))
    answer = pairing.encode(pairing.parse_sdp(CHROMIUM_ANSWER, "answer"))
    with pytest.raises(PairingError, match="invitation"):
        pairing.decode(offer, "answer")
    with pytest.raises(PairingError, match="réponse"):
        pairing.decode(answer, "offer")


def test_hostile_and_truncated_codes_are_refused():
    good = pairing.encode(pairing.parse_sdp(CHROMIUM_OFFER, "offer"))
    data = base64.urlsafe_b64decode(good + "=" * (-len(good) % 4))
    b64 = lambda raw: base64.urlsafe_b64encode(raw).decode().rstrip("=")  # noqa: E731
    hostile = [
        "", "   ", "#pair=", "x" * 5000, good + "!", good[:-1] + "<", "javascript:alert(1)",
        "💥" * 10, good + "A" * 400,
        b64(bytes([2]) + data[1:]),  # a newer format
        b64(bytes([0]) + data[1:]),
        b64(data[:1] + bytes([data[1] | 0b1000]) + data[2:]),  # a reserved bit
        b64(data[:1] + bytes([(data[1] & 0x0F)]) + data[2:]),  # no candidate
        b64(data[:1] + bytes([data[1] | 0b110]) + data[2:]),  # a fourth role
        b64(data[:1] + bytes([data[1] | 1]) + data[2:]),  # an answer that says actpass
        b64(data + b"\0"),  # trailing bytes
        b64(data[:2] + bytes([200]) + data[3:]),  # a ufrag longer than the code
        b64(data[:2] + bytes([2]) + data[3:]),  # a ufrag too short
        b64(data[:3] + b"\xff\xfe" + data[5:]),  # not ASCII
        b64(data[:3] + b"e m" + data[6:]),  # not ice-chars
    ]
    hostile += [good[:n] for n in range(0, len(good), 7)]  # every truncation
    hostile += [b64(data[:n]) for n in range(len(data))]
    candidate_kind = len(data) - 2 * 19  # the first candidate's kind byte
    hostile.append(b64(data[:candidate_kind] + b"\x07" + data[candidate_kind + 1:]))
    hostile.append(b64(data[:-2] + b"\0\0"))  # port 0
    for written in hostile:
        with pytest.raises(PairingError):
            pairing.decode(written)
    rng = random.Random(23)
    for _ in range(2000):  # random bytes: a clean refusal or a valid description, nothing else
        raw = bytearray(data)
        for _ in range(rng.randrange(1, 4)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        try:
            d = pairing.decode(b64(bytes(raw)))
        except PairingError:
            continue
        assert pairing.decode(pairing.encode(d)) == d
    for written in (None, 12, b"abc", ["x"]):
        with pytest.raises(PairingError):
            pairing.decode(written)


def test_hostile_sdps_are_refused():
    for sdp in ("", "v=0", CHROMIUM_OFFER.replace("sha-256", "sha-1"), CHROMIUM_OFFER.replace("a=ice-ufrag:e2mH", ""),
                CHROMIUM_OFFER.replace("e2mH", "e m"), CHROMIUM_OFFER.replace("5E:B9", "ZZ:B9"),
                CHROMIUM_OFFER * 100, CHROMIUM_OFFER.replace("actpass", "holdconn")):
        with pytest.raises(PairingError):
            pairing.parse_sdp(sdp, "offer")
    with pytest.raises(PairingError):
        pairing.parse_sdp(CHROMIUM_OFFER, "pranswer")
    with pytest.raises(PairingError):  # an answer must take a DTLS role
        pairing.parse_sdp(CHROMIUM_OFFER, "answer")
    # a candidate with a hostile address is not kept; another one is
    evil = CHROMIUM_OFFER.replace("b634b21a-e9ac-477b-8847-5926c8e4deae.local", "<img src=x>")
    assert len(pairing.parse_sdp(evil, "offer").candidates) == 1


def test_messages_round_trip():
    raw = pairing.message("moves", n=3, moves=["roll", "dice 1 2 3 4 5"], hash=pairing.record_hash(["a"]))
    assert pairing.read_message(raw) == {"t": "moves", "n": 3, "moves": ["roll", "dice 1 2 3 4 5"],
                                         "hash": pairing.record_hash(["a"])}
    for kind, fields in (("hello", {"v": 1, "device": "deviceAAAAAAAA", "record": ""}), ("game", {"record": "1.x"}),
                         ("move", {"n": 0, "move": "score chance"}), ("undo", {"n": 4}),
                         ("refused", {"why": "Non.", "n": 2}), ("sync", {}), ("bye", {})):
        assert pairing.read_message(pairing.message(kind, **fields)) == {"t": kind, **fields}


def test_hostile_messages_are_refused():
    hostile = [
        None, 3, "", "x" * (pairing.MAX_MESSAGE + 1), "[]", '"move"', "{", "NaN", '{"t":"move","n":NaN,"move":"roll"}',
        '{"t":"eval","code":"alert(1)"}', '{"t":"move","n":1}', '{"t":"move","n":1,"move":"roll","x":1}',
        '{"t":"move","n":"1","move":"roll"}', '{"t":"move","n":true,"move":"roll"}',
        '{"t":"move","n":-1,"move":"roll"}', '{"t":"move","n":1.5,"move":"roll"}',
        '{"t":"move","n":1,"move":""}', json.dumps({"t": "move", "n": 1, "move": "k" * 121}),
        '{"t":"move","n":1,"move":["roll"]}', '{"t":"moves","n":1,"moves":[],"hash":"x"}',
        json.dumps({"t": "moves", "n": 1, "moves": ["roll"] * 65, "hash": "x"}),
        '{"t":"moves","n":1,"moves":[1],"hash":"x"}', '{"t":"game","record":{"actions":[]}}',
        json.dumps({"t": "refused", "why": "x" * 601, "n": 1}), "[" * 100_000,
        json.dumps({"t": "hello", "v": 1, "device": "d" * 33, "record": ""}),
        '{"t":"bye","t":"bye","x":1}', '{"t":"sync"} ',
    ]
    for raw in hostile[:-1]:
        with pytest.raises(BadMessage):
            pairing.read_message(raw)
    assert pairing.read_message(hostile[-1]) == {"t": "sync"}  # JSON's own blanks are fine
    with pytest.raises(BadMessage):
        pairing.message("move", n=1, move="x" * 500)  # the page never sends what it would refuse


def test_the_hash_follows_every_move():
    moves = ["roll", "dice 1 2 3 4 5", "score chance"]
    assert pairing.record_hash(moves) == pairing.record_hash(list(moves))
    assert pairing.record_hash(moves) != pairing.record_hash(moves[:2])
    assert pairing.record_hash(["ab", "c"]) != pairing.record_hash(["a", "bc"])
    assert len(pairing.record_hash([])) == 16
