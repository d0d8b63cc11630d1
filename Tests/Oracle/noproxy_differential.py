"""NO_PROXY decisions of the real curl command, for the Swift differential test to compare.

Generates (host, no-proxy list) pairs that cover the corners of curl 7.88.1's matching
(`lib/noproxy.c`): names, subdomains, leading and trailing dots, `*`, case, IPv4 and IPv6
addresses (bracketed and not in entries), CIDR prefixes of every length, ports in entries,
blanks, tabs, commas, empty and long entries, and IPv4 addresses in the other forms libcurl
reads (`127.1`, `0x7f.1`). For each pair it asks `curl` which way it goes:

    curl -v --noproxy LIST -x http://127.0.0.1:PROXYPORT http://HOST:TARGETPORT/

inside a network namespace with only loopback (`unshare -n`, `ip link set lo up`), so no packet
leaves the machine: names do not resolve, addresses other than loopback are unreachable, and
nothing listens on the ports used. A transfer went through the proxy exactly when curl's
trace says `Trying 127.0.0.1:PROXYPORT`. Many transfers share one curl process (`--next`); each
has its own proxy and target port, so every trace line names its transfer, and each
transfer's `-w` line proves it ran.

Writes one JSON object per line: {"host": ..., "list": ..., "url": ..., "curl": "proxy"|"direct"}.
The Swift test `NoProxyDifferentialTests` (ProbeKitTests) reads the file named by
STAGEBUILD_DIFFERENTIAL_NOPROXY and compares the probe's route with curl's.

Usage:
    noproxy_differential.py OUT.jsonl [--count N] [--seed S] [--minutes M]

    --count N    pairs to generate (default 2000); not used with --minutes
    --seed S     the seed (default: random, printed so a run can be replayed)
    --minutes M  keep generating and asking curl for about M minutes (long runs; at most 10 million)

Needs root (or user namespaces) for `unshare -n`, and Debian's curl 7.88.1 (a warning is
printed for another version).
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import random
import re
import subprocess
import sys
import time
from dataclasses import dataclass

EXPECTED_CURL = "7.88.1"
PROXY_PORT_BASE = 10000
TARGET_PORT_BASE = 40000
BATCH = 400
PROCESS_TIMEOUT_SECONDS = 60

NAMES = [
    "probe.test",
    "api.probe.test",
    "deep.api.probe.test",
    "notprobe.test",
    "API.Probe.TEST",
    "localhost",
    "x",
    "probe.test.",
    "api.probe.test.",
    "a-b.example",
    "xn--bcher-kva.example",
    "1password.test",
    "127.0.0.1.",
    "10.0.0.1.nip.test",
    "%61pi.probe.test",
    "API.probe.test%2e",
]
IPV4 = ["127.0.0.1", "127.0.0.5", "10.1.2.3", "10.255.255.255", "192.168.7.1", "172.16.5.4", "0.0.0.0", "255.255.255.255"]
# Other IPv4 forms that libcurl's URL parser reads as a dotted quad (ipv4_normalize).
IPV4_OTHER_FORMS = {"127.1": "127.0.0.1", "0x7f.1": "127.0.0.1", "2130706433": "127.0.0.1", "012.1.2.3": "10.1.2.3"}
IPV6 = ["::1", "fe80::1", "fe80::ab47:4396:55c9:8474", "2001:db8::5", "2001:db8:1:2::5", "febf::1", "fec0::1", "::", "::ffff:10.0.0.1"]


@dataclass
class Pair:
    """One host and one list."""

    host: str
    list: str

    @property
    def url_host(self) -> str:
        """The host as it stands in a URL: IPv6 in brackets."""
        return f"[{self.host}]" if ":" in self.host else self.host


def ipv4_network(address: str, bits: int, rng: random.Random) -> str:
    """A network written for `address`: sometimes containing it, sometimes one bit off."""
    value = int.from_bytes(bytes(int(p) for p in address.split(".")), "big")
    if bits and rng.random() < 0.3:
        value ^= 1 << (32 - bits)  # flip the last bit of the prefix: outside
    if rng.random() < 0.5 and bits < 32:
        value &= ~((1 << (32 - bits)) - 1) & 0xFFFFFFFF
    return ".".join(str(b) for b in value.to_bytes(4, "big"))


def ipv6_network(address: str, bits: int, rng: random.Random) -> str:
    """An IPv6 network written for `address`, as `ipv4_network`."""
    value = int(ipaddress.IPv6Address(address))
    if bits and rng.random() < 0.3:
        value ^= 1 << (128 - bits)
    if rng.random() < 0.5 and bits < 128:
        value &= ~((1 << (128 - bits)) - 1) & ((1 << 128) - 1)
    text = str(ipaddress.IPv6Address(value))
    return text.upper() if rng.random() < 0.2 else text


def name_entry(host: str, rng: random.Random) -> str:
    """An entry related to a host name: itself, a suffix, a near miss, with dots and case."""
    labels = host.rstrip(".").split(".")
    choice = rng.random()
    if choice < 0.3:
        entry = ".".join(labels[rng.randrange(len(labels)) :])
    elif choice < 0.45:
        entry = host
    elif choice < 0.6:
        entry = "x" + ".".join(labels[rng.randrange(len(labels)) :])
    elif choice < 0.7:
        entry = rng.choice(labels)[1:] + "." + ".".join(labels[1:]) if len(labels) > 1 else host[1:]
    else:
        entry = rng.choice(NAMES)
    if rng.random() < 0.3:
        entry = "." + entry
    if rng.random() < 0.2:
        entry += "."
    if rng.random() < 0.2:
        entry = entry.swapcase()
    if rng.random() < 0.05:
        entry += ":" + str(rng.choice([80, 8080, 443]))
    return entry


def address_entry(host: str, rng: random.Random) -> str:
    """An entry related to an address: itself or a network, with odd prefix texts."""
    is_v6 = ":" in host
    base = IPV4_OTHER_FORMS.get(host, host)
    top = 128 if is_v6 else 32
    choice = rng.random()
    if choice < 0.15:
        entry = base
    elif choice < 0.75:
        bits = rng.randrange(0, top + 1)
        network = ipv6_network(base, bits, rng) if is_v6 else ipv4_network(base, bits, rng)
        entry = f"{network}/{bits}"
    elif choice < 0.85:
        network = ipv6_network(base, 8, rng) if is_v6 else ipv4_network(base, 8, rng)
        entry = network + "/" + rng.choice(["", "8x", "+8", "-1", "33", "129", "0", "08", " 8", "999999999999"])
    else:
        entry = rng.choice(IPV4 + IPV6 + list(IPV4_OTHER_FORMS))
    if is_v6 and rng.random() < 0.25:
        entry = f"[{entry.split('/')[0]}]" + ("/" + entry.split("/")[1] if "/" in entry else "")
    if rng.random() < 0.05:
        entry += ":" + str(rng.choice([80, 8080]))
    return entry


def separator(rng: random.Random) -> str:
    """Between entries: commas, blanks, tabs, runs of them, empty entries."""
    return rng.choice([",", ", ", " ,", ",,", " ", "\t", ", \t,", ",,,", "  ", ", ,"])


def generate(rng: random.Random) -> Pair:
    """One pair."""
    kind = rng.random()
    if kind < 0.4:
        host = rng.choice(NAMES)
    elif kind < 0.65:
        host = rng.choice(IPV4 + list(IPV4_OTHER_FORMS))
    else:
        host = rng.choice(IPV6)
    entries = []
    for _ in range(rng.choice([1, 1, 2, 3, 4])):
        related = rng.random() < 0.75
        if ":" in host or host in IPV4 or host in IPV4_OTHER_FORMS:
            entries.append(address_entry(host, rng) if related else name_entry(rng.choice(NAMES), rng))
        else:
            entries.append(name_entry(host, rng) if related else address_entry(rng.choice(IPV4 + IPV6), rng))
    if rng.random() < 0.05:
        entries.append(rng.choice(["*", "*.test", "."]))
    if rng.random() < 0.04:
        # 128 characters or more: libcurl's buffer never matches an address entry this long.
        entries.append(entries[0] + "/" + "0" * rng.randrange(120, 140))
    if rng.random() < 0.03:
        entries.append("a" * rng.randrange(120, 140) + "." + host)
    text = entries[0]
    for entry in entries[1:]:
        text += separator(rng) + entry
    if rng.random() < 0.1:
        text = rng.choice([" ", ",", "\t", ", "]) + text
    if rng.random() < 0.1:
        text += rng.choice([" ", ",", "\t", ", "])
    if rng.random() < 0.02:
        text = rng.choice(["*", "", " *", "*,", ","])
    return Pair(host, text)


def check_curl_version() -> None:
    """Warn when curl is not the version the expected differences are written for."""
    output = subprocess.run(["curl", "--version"], capture_output=True, text=True, timeout=10).stdout
    version = output.split()[1] if output else "unknown"
    if version != EXPECTED_CURL:
        print(f"warning: curl {version}, not {EXPECTED_CURL}: the documented differences are 7.88.1's", file=sys.stderr)


def ask_curl(pairs: list[Pair]) -> list[str]:
    """curl's decision for each pair; a batch is asked again once if a transfer ended oddly
    (seen rarely on a loaded machine: exit code 1 for a direct `localhost`)."""
    try:
        return ask_curl_once(pairs)
    except RuntimeError as error:
        print(f"noproxy_differential.py: asking again: {error}", file=sys.stderr)
        return ask_curl_once(pairs)


def ask_curl_once(pairs: list[Pair]) -> list[str]:
    """curl's decision for each pair, in one curl process inside a loopback-only namespace."""
    arguments = ["curl", "-s", "-v", "--connect-timeout", "2"]
    for index, pair in enumerate(pairs):
        if index:
            arguments.append("--next")
        arguments += [
            "-o", "/dev/null", "-w", f"T{index} %{{exitcode}}\\n", "--noproxy", pair.list,
            "-x", f"http://127.0.0.1:{PROXY_PORT_BASE + index}",
            f"http://{pair.url_host}:{TARGET_PORT_BASE + index}/",
        ]  # fmt: skip
    script = 'ip link set lo up && exec "$@"'
    result = subprocess.run(
        ["unshare", "-n", "sh", "-c", script, "sh", *arguments],
        capture_output=True,
        text=True,
        timeout=PROCESS_TIMEOUT_SECONDS,
        env={"PATH": "/usr/bin:/bin:/usr/sbin:/sbin"},
    )
    ran = dict(re.findall(r"^T(\d+) (\d+)$", result.stdout, re.MULTILINE))
    tried = {int(port) for port in re.findall(r"Trying 127\.0\.0\.1:(\d+)\.\.\.", result.stderr)}
    decisions = []
    for index, pair in enumerate(pairs):
        if str(index) not in ran:
            raise RuntimeError(f"curl did not run transfer {index} ({pair}):\n{result.stderr[-2000:]}")
        decision = "proxy" if PROXY_PORT_BASE + index in tried else "direct"
        # Through the proxy: it cannot connect to it (7). Direct: the name does not resolve (6)
        # or the address cannot be reached (7). Anything else is no decision at all.
        if ran[str(index)] not in (("7",) if decision == "proxy" else ("6", "7")):
            raise RuntimeError(f"curl ended transfer {index} ({pair}) with code {ran[str(index)]}")
        decisions.append(decision)
    return decisions


def main() -> int:
    """Generates the pairs, asks curl, writes JSON lines."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--minutes", type=float, default=None)
    options = parser.parse_args()
    seed = options.seed if options.seed is not None else random.randrange(2**32)
    print(f"noproxy_differential.py: seed {seed} (replay with --seed {seed})", file=sys.stderr)
    check_curl_version()
    rng = random.Random(seed)
    deadline = time.monotonic() + options.minutes * 60 if options.minutes else None
    limit = options.count if deadline is None else 10_000_000
    written = 0
    with open(options.out, "w", encoding="utf-8") as out:
        while written < limit and (deadline is None or time.monotonic() < deadline):
            pairs = [generate(rng) for _ in range(min(BATCH, limit - written))]
            for pair, decision in zip(pairs, ask_curl(pairs)):
                url = f"http://{pair.url_host}:{TARGET_PORT_BASE}/"
                out.write(json.dumps({"host": pair.host, "list": pair.list, "url": url, "curl": decision}) + "\n")
            written += len(pairs)
    print(f"noproxy_differential.py: {written} pairs asked of curl, written to {options.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
