"""Proxy texts and target URLs for the URL differential test (ProbeKit beside libcurl's URL API).

Generates inputs that cover the corners of URL and proxy-URL syntax: schemes and their case,
a missing scheme, zero to four slashes, user info with and without a password, percent-encoding
(valid, invalid, of `@ : / ? #`, of control characters), raw `@ : / ? #` in credentials, IPv4 in
its other forms (`127.1`, `0x7f.1`, `2130706433`), IPv6 with and without brackets and zone ids,
ports (empty, 0, 65535, 65536, huge, leading zeros, signs), host names with odd characters,
IDN and Unicode, trailing dots, paths with dot segments, queries, fragments, and blanks and
control characters anywhere; then mutations of those (a character inserted, dropped or
replaced by a delimiter) and of the fixed cases of the unit tests.

Writes one JSON object per line, {"kind": "proxy"|"target", "text": ...}. The Swift test
`URLDifferentialTests` (ProbeKitTests) reads the file named by STAGEBUILD_DIFFERENTIAL_URLS and
compares ProbeKit's reading of each input (``ProxyServer``, ``ProbeRequest``) with libcurl's
(``URLParts``, through the Curl module, as libcurl 7.88.1's `parse_proxy` and a transfer read
them): accept or refuse, and scheme, user, password, host and port.

Usage:
    url_differential.py OUT.jsonl [--count N] [--seed S]

    --count N    inputs to generate (default 4000)
    --seed S     the seed (default: random, printed so a run can be replayed)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import TypeVar

T = TypeVar("T")

# Each part has forms every parser should take ("clean") and corner forms ("odd"); an input
# takes an odd form for a part with probability ODD, so that many inputs are accepted and
# their parts compared, and the corners still come up often.
ODD = 0.2
SCHEMES = (["http", "https", "HTTP", "HtTpS"], ["socks5", "socks5h", "socks4", "socks4a", "socks", "ftp", "gopher", "x-y.z+1", "1http"])
SEPARATORS = (["://"], [":/", ":///", ":////", ":", ":\\\\", "//"])
USERS = (["user", "u", "bob%40corp", "al%3Aice", "%41%42", "u%2Fx", "u%3Fx", "u%23x", "%C3%BC", "-", ""], ["u%00", "u%0a", "u%7f", "u%zz", "u%", "u%4", "ü", "u;opt", "u v", "u\t", "u@v"])
PASSWORDS = ([None, "", "secret", "p%40ss", "p%3Ass", "p:ss", "p%2F", "::", "p%7F"], ["p@ss", "p/ss", "p?ss", "p#ss", "p%00", "p%0D%0A", "%zz", "pässword", "p ss"])
NAMES = (
    ["proxy.test", "api.example", "PROXY.Test", "localhost", "x", "proxy.test.", "a-b.test", "a_b.test", "ftpx.example",
     "a%41.test", "b%C3%BCcher.example", "xn--bcher-kva.example", "-a.test", "a~b"],
    ["a..b", ".", "..", "ftp.example", "dict.example", "ldap.x", "IMAP.x", "smtp.x", "pop3.x", "%2e", "a%2541.test",
     "a%2Fb", "a%20b", "a%00b", "a%7Fb", "bücher.example", "例え.テスト", "a!b", "a$b", "a{b", "a'b", "a=b", "a*b", "a,b",
     "a+b", "a&b", "a(b", "a;b", "a^b", "a`b", "a<b", "a\"b", "a|b", "a\\b", "a b", "a\tb", "aé", "a\u00a0b", "a\u200bb", "*"],
)
IPV4 = (["127.0.0.1", "10.0.0.1", "127.1", "0x7f.1", "0X7F.0.0.1", "2130706433", "0177.0.0.1", "012.1.2.3", "1.2.3"],
        ["256.1.1.1", "1.2.3.4.5", "01.2.3.4", "127.0.0.1.", "4294967296", "0x100000000", "09.1.1.1", "0x", "1..2"])
IPV6 = (
    ["[::1]", "[0:0::1]", "[::FFFF:1.2.3.4]", "[fe80::1%25eth0]", "[fe80::1%eth0]", "[2001:DB8::1]",
     "[0000:0000:0000:0000:0000:0000:0000:0001]", "[::]", "[fe80::1%25abcdefghijklmno]"],
    ["[fe80::1%25]", "[fe80::1%]", "[fe80::1%25abcdefghijklmnop]", "[::1", "::1]", "::1", "[1.2.3.4]", "[]", "[::g]",
     "[::1]x", "[:::1]", "[fe80::1%25eth0%25]", "[fe80::1%25eth]0]", "[fe80::1%2]", "[fe80::1%25%41]"],
)
PORTS = ([None, None, "", "0", "80", "3128", "65535", "0080"], ["65536", "99999", "99999999999999999999", "00000000000000000080", "+80", "-1", "8x", " 80", "80 ", "0x50", "١٢"])
PATHS = (["", "/", "/a/b", "/a/../b", "/./x", "/a/./b/../../c", "/%2e%2e/x", "/a%2F", "/..", "//"], ["/a b", "/ü", "/a%zz", "/a|b", "/a[b]", "/a\\b", "/a{b}"])
QUERIES = ([None, None, "", "a=b", "a+b", "a=%20"], ["a b", "a=%zz", "#", "q=ü", "a|b"])
FRAGMENTS = ([None, None, "", "f", "a/b?c"], ["a#b", "f g", "é", "a%zz"])
NOISE = [" ", "\t", "\r\n", "\n", "\x7f", "\x01", "\x0b", "\u00a0", "\ufeff"]
DELIMITERS = list("@:/?#[]%.;= ") + ["%25", "%40", "\\"]

# The fixed cases of the unit tests (ProxyServerTests, ProxyConfigurationCurlOracleTests,
# InputParsingTests), mutated as well as asked as they are.
CORPUS = [
    ("proxy", "127.0.0.1"), ("proxy", "https://127.0.0.1"), ("proxy", "HTTP://u%3Ax:p%40ss@127.0.0.1:17/"),
    ("proxy", "http:///127.0.0.1:17"), ("proxy", "ftp.example:17"), ("proxy", "127.0.0.1:/x"),
    ("proxy", "http://127.0.0.1:65536"), ("proxy", "127.0.0.1:"), ("proxy", "http://127.0.0.1:"),
    ("proxy", "http://user:p%40ss@proxy.internal:3128"), ("proxy", "proxy:3128"), ("proxy", "http://[::1]:3128"),
    ("proxy", "socks5://proxy:1080"), ("proxy", "http://[fe80::1%25eth0]:3128"),
    ("target", "https://bob:s3cret-pw@api.test:8443/x?y=1"), ("target", "http://[::1]/"), ("target", "ftp://api.test/"),
    ("target", "api.test"), ("target", "https:///path"), ("target", "mailto:x@y"), ("target", "http://api.test:65536/"),
    ("target", "http://b\u00fccher.localhost:8080/"), ("target", "http://a.test/"),
]


def pick(rng: random.Random, forms: tuple[list[T], list[T]]) -> T:
    """A clean form of a part, or with probability ODD an odd one."""
    clean, odd = forms
    return rng.choice(odd if rng.random() < ODD else clean)


def host(rng: random.Random) -> str:
    """A host: a name, an IPv4 form or an IPv6 form."""
    roll = rng.random()
    if roll < 0.5:
        return pick(rng, NAMES)
    if roll < 0.75:
        return pick(rng, IPV4)
    return pick(rng, IPV6)


def generate(rng: random.Random, kind: str) -> str:
    """One input of a kind, built from parts."""
    text = ""
    if rng.random() < (0.75 if kind == "target" else 0.6):
        text = pick(rng, SCHEMES) + pick(rng, SEPARATORS)
    if rng.random() < 0.3:
        user = pick(rng, USERS)
        password = pick(rng, PASSWORDS)
        text += user + (f":{password}" if password is not None else "") + "@"
    text += host(rng)
    port = pick(rng, PORTS)
    if port is not None:
        text += ":" + port
    if kind == "target" or rng.random() < 0.2:
        text += pick(rng, PATHS)
        query = pick(rng, QUERIES)
        if query is not None:
            text += "?" + query
        fragment = pick(rng, FRAGMENTS)
        if fragment is not None:
            text += "#" + fragment
    if rng.random() < 0.03:
        text = rng.choice(NOISE) + text
    if rng.random() < 0.03:
        text += rng.choice(NOISE)
    return text


def mutate(text: str, rng: random.Random) -> str:
    """One to three edits: a delimiter or noise inserted, a character dropped or replaced."""
    characters = list(text)
    for _ in range(rng.randrange(1, 4)):
        position = rng.randrange(len(characters) + 1)
        edit = rng.random()
        if edit < 0.4:
            characters.insert(position, rng.choice(DELIMITERS + NOISE))
        elif characters and edit < 0.7:
            del characters[min(position, len(characters) - 1)]
        elif characters:
            characters[min(position, len(characters) - 1)] = rng.choice(DELIMITERS)
    return "".join(characters)


def main() -> int:
    """Writes the inputs as JSON lines."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=None)
    options = parser.parse_args()
    seed = options.seed if options.seed is not None else random.randrange(2**32)
    print(f"url_differential.py: seed {seed} (replay with --seed {seed})", file=sys.stderr)
    rng = random.Random(seed)
    with open(options.out, "w", encoding="utf-8") as out:
        for kind, text in CORPUS:
            out.write(json.dumps({"kind": kind, "text": text}) + "\n")
        for _ in range(options.count):
            kind = rng.choice(["proxy", "target"])
            roll = rng.random()
            if roll < 0.1:
                kind, text = rng.choice(CORPUS)
                text = mutate(text, rng)
            elif roll < 0.35:
                text = mutate(generate(rng, kind), rng)
            else:
                text = generate(rng, kind)
            out.write(json.dumps({"kind": kind, "text": text}) + "\n")
    print(f"url_differential.py: {len(CORPUS) + options.count} inputs written to {options.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
