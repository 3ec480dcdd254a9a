"""Counters and tools: reading perftest and NIC counters, and naming the fault behind a pattern.

An RDMA fabric is checked with two kinds of output. **perftest** (``ib_write_bw``,
``ib_write_lat`` and friends, from linux-rdma/perftest) measures one pair of adapters; its
bandwidth is in MiB/s (2^20 bytes per second; the header said ``MB/sec`` before 2024 but the
divisor was always 0x100000) unless ``--report_gbits`` asks for Gb/s, and its latencies are in
microseconds. **Counters** say what happened on the way: ``ethtool -S <netdev>`` prints the
Ethernet port's counters (per priority: ``rx_prio3_pause``, ``tx_prio3_pause_duration``, ...;
physical errors: ``rx_crc_errors_phy``, ``rx_oversize_pkts_phy``; the NIC's own pause-storm
guard: ``tx_pause_storm_*``), and ``rdma statistic show`` prints the RDMA transport's
(``out_of_sequence``, ``packet_seq_err``, ``local_ack_timeout_err``, ``np_ecn_marked_roce_packets``,
``np_cnp_sent``, ``rp_cnp_handled`` ...), names as the Linux mlx5 drivers give them.

What each means, for a RoCE reliable connection:

* ``out_of_sequence`` (responder): a packet arrived with a later PSN than expected; something
  before it was lost. ``packet_seq_err`` (requester): NAKs for such a gap received, each a
  go-back-N resend. ``local_ack_timeout_err`` (requester): the ACK timer fired, the tail was lost
  or nothing at all arrived.
* ``np_ecn_marked_roce_packets`` / ``np_cnp_sent`` (the notification point, the receiver): ECN-marked
  packets received and CNPs sent for them. ``rp_cnp_handled`` / ``rp_cnp_ignored`` (the reaction
  point, the sender): CNPs that cut its rate, or were ignored (congestion control off there).
* ``rx_prio{p}_pause`` / ``_duration``: pauses received on priority p and how long (µs) the port
  stood still; ``tx_prio{p}_pause`` / ``_duration``: pauses this NIC sent.

:func:`diagnose` turns the counter deltas of both ends of one flow over an interval into a
named fault, with the evidence.
"""

from __future__ import annotations

import pathlib
import re
from dataclasses import dataclass
from typing import Mapping

from netlab import validate
from netlab.units import Gbps, MiB, us

#: The folder of example captures in the tools' printed formats (perftest reports, ``ethtool -S`` and
#: ``rdma statistic`` deltas); their numbers are illustrative, written for netlab, not measured.
CAPTURES = pathlib.Path(__file__).resolve().parent / "captures"

#: Faults :func:`diagnose` can name, with what each means.
FAULTS = {
    "pfc_storm": "the receiver NIC sends pause frames without end (a stuck receiver): its port, and "
                 "through the switch every flow that shares a paused link, stand still",
    "mtu_mismatch": "frames longer than the receiving port's MTU are dropped at the port (the peer has a "
                    "larger MTU): small messages pass, large ones time out",
    "lossy_link": "bit errors on a link corrupt packets (FCS errors); the transport resends from the gap",
    "wrong_priority": "RoCE traffic is not on the lossless priority (DSCP not mapped): it is dropped under "
                      "congestion although PFC is configured",
    "no_pfc": "the RoCE priority drops under congestion: PFC is not enabled on it",
    "no_cnp": "switches mark ECN but the receiver sends no CNPs (notification point off): only PFC "
              "holds the queues",
    "cnp_ignored": "CNPs reach the sender but it does not slow down (reaction point off)",
    "unexplained_loss": "packets are lost although the priority pauses; the NIC counters do not say where: "
                        "read the drop counters of the switches along the path",
    "congestion": "congestion handled as designed: ECN marks answered by CNPs, some pauses, no loss",
    "healthy": "nothing to explain: no loss, no pauses to speak of, no congestion marks",
}


# --- perftest -------------------------------------------------------------------------------

@dataclass(frozen=True)
class BandwidthRow:
    """One result line of a perftest bandwidth test (``ib_write_bw``), in SI units."""

    size_bytes: int
    iterations: int
    bw_peak_bps: float
    bw_average_bps: float
    msg_rate_pps: float


@dataclass(frozen=True)
class LatencyRow:
    """One result line of a perftest latency test (``ib_write_lat``), in seconds."""

    size_bytes: int
    iterations: int
    t_min_s: float
    t_max_s: float
    t_typical_s: float
    t_avg_s: float
    t_stdev_s: float
    p99_s: float
    p999_s: float


@dataclass(frozen=True)
class PerftestReport:
    """A parsed perftest report: its settings and its result rows."""

    test: str
    settings: dict
    rows: tuple
    unit: str

    @property
    def mtu_bytes(self) -> int:
        """The path MTU the test ran with (``Mtu : 4096[B]``)."""
        return int(re.sub(r"\D", "", self.settings.get("Mtu", "0")) or 0)

    def __str__(self) -> str:
        lines = [(f"{self.test} ({self.settings.get('Link type', '?')}, MTU {self.mtu_bytes} B, "
                 f"{self.settings.get('Connection type', '?')})")]
        for r in self.rows:
            if isinstance(r, BandwidthRow):
                lines.append(f"  {r.size_bytes:>8} B: average {r.bw_average_bps / Gbps:.2f} Gb/s "
                             f"(peak {r.bw_peak_bps / Gbps:.2f}), {r.msg_rate_pps / 1e6:.3f} M msg/s")
            else:
                lines.append(f"  {r.size_bytes:>8} B: typical {r.t_typical_s / us:.2f} µs, average "
                             f"{r.t_avg_s / us:.2f} µs, 99.9 % {r.p999_s / us:.2f} µs")
        return "\n".join(lines)


_BW_UNITS = {"MiB/sec": MiB * 8, "MB/sec": MiB * 8, "Gb/sec": Gbps}


def parse_perftest(text: str) -> PerftestReport:
    """Parse the printed report of ``ib_write_bw`` / ``ib_write_lat`` (and the other perftest tests).

    Settings are the ``Name : value`` lines of the header; rows follow the ``#bytes`` title. A
    bandwidth in ``MiB/sec`` (or the older ``MB/sec``, the same divisor 2^20) becomes bit/s as
    x 2^20 x 8; ``Gb/sec`` (``--report_gbits``) as x 10^9; latencies in ``usec`` become seconds.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str (perftest's printed report), got {type(text).__name__}")
    lines = text.splitlines()
    title_at = next((i for i, line in enumerate(lines) if line.strip().startswith("#bytes")), None)
    if title_at is None:
        raise ValueError("text: no '#bytes' result title found; is this perftest output?")
    test = next((line.strip() for line in lines[:title_at]
                 if line.strip().endswith("Test") and ":" not in line), "perftest")
    settings = {}
    for line in lines[:title_at]:
        for part in re.split(r"\t{2,}", line.strip()):
            if ":" in part and not part.lstrip().startswith(("local address", "remote address", "GID:")):
                name, value = part.split(":", 1)
                settings[name.strip()] = value.strip()
    title = lines[title_at]
    rows: list = []
    if "t_min" in title:
        unit = "usec"
        for line in lines[title_at + 1:]:
            fields = line.split()
            if len(fields) == 9 and fields[0].isdigit():
                v = [float(x) * us for x in fields[2:]]
                rows.append(LatencyRow(int(fields[0]), int(fields[1]), *v))
    else:
        found = re.search(r"BW average\[([^\]]+)\]", title)
        if not found or found.group(1) not in _BW_UNITS:
            raise ValueError(f"text: unknown bandwidth unit in {title.strip()!r}; expected one of {list(_BW_UNITS)}")
        unit = found.group(1)
        scale = _BW_UNITS[unit]
        for line in lines[title_at + 1:]:
            fields = line.split()
            if len(fields) >= 5 and fields[0].isdigit():
                rows.append(BandwidthRow(int(fields[0]), int(fields[1]), float(fields[2]) * scale,
                                         float(fields[3]) * scale, float(fields[4]) * 1e6))
    if not rows:
        raise ValueError("text: the report has a title but no result rows")
    return PerftestReport(test=test, settings=settings, rows=tuple(rows), unit=unit)


# --- counters -------------------------------------------------------------------------------

def parse_counters(text: str) -> dict[str, int]:
    """Counter name -> value from ``ethtool -S`` output and/or ``rdma statistic show`` lines.

    ``ethtool -S`` prints ``     name: value`` under ``NIC statistics:``; ``rdma statistic show``
    prints ``link mlx5_0/1 name value name value ...`` (one link per line, possibly wrapped).
    Lines starting with ``#`` are comments. A name seen twice is an error.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str (ethtool -S or rdma statistic output), got {type(text).__name__}")
    counters: dict[str, int] = {}

    def put(name: str, value: str) -> None:
        if name in counters:
            raise ValueError(f"text: counter {name!r} appears twice")
        counters[name] = int(value)

    rdma_words: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or stripped == "NIC statistics:":
            continue
        found = re.fullmatch(r"([A-Za-z0-9_\[\]]+):\s*(-?\d+)", stripped)
        if found:
            put(found.group(1), found.group(2))
        elif stripped.startswith("link ") or rdma_words:
            rdma_words.extend(stripped.split())
        else:
            raise ValueError(f"text: cannot read the line {stripped!r}")
    while rdma_words:
        if rdma_words[0] == "link":
            rdma_words = rdma_words[2:]
            continue
        if len(rdma_words) < 2 or not rdma_words[1].lstrip("-").isdigit():
            raise ValueError(f"text: expected 'name value' in the rdma statistic line, got {rdma_words[:2]}")
        put(rdma_words[0], rdma_words[1])
        rdma_words = rdma_words[2:]
    if not counters:
        raise ValueError("text: no counters found")
    return counters


def parse_capture(text: str) -> dict[str, dict[str, int]]:
    """Split a capture holding several hosts' counters, each section opened by ``== name ==``,
    into ``{name: parse_counters(section)}``; comment lines before the first section are skipped."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    sections: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        found = re.fullmatch(r"==\s*(\S+)\s*==", line.strip())
        if found:
            current = found.group(1)
            if current in sections:
                raise ValueError(f"text: section {current!r} appears twice")
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
        elif line.strip() and not line.lstrip().startswith("#"):
            raise ValueError(f"text: {line.strip()!r} comes before the first '== name ==' section")
    if not sections:
        raise ValueError("text: no '== name ==' sections found")
    return {name: parse_counters("\n".join(body)) for name, body in sections.items()}


def counter_delta(before: Mapping[str, int], after: Mapping[str, int]) -> dict[str, int]:
    """``after - before`` for every counter in ``after`` (counters only grow; a drop is an error)."""
    for name, counters in (("before", before), ("after", after)):
        if not isinstance(counters, Mapping):
            raise TypeError(f"{name} must map counter names to values (parse_counters), got {type(counters).__name__}")
    delta = {}
    for name, value in after.items():
        d = value - before.get(name, 0)
        if d < 0:
            raise ValueError(f"after: counter {name!r} went down ({before.get(name)} -> {value}); "
                             "was the driver reloaded between the two readings?")
        delta[name] = d
    return delta


@dataclass(frozen=True)
class Diagnosis:
    """A named fault (a key of :data:`FAULTS`) and the counters that point to it."""

    fault: str
    evidence: tuple[str, ...]

    @property
    def meaning(self) -> str:
        return FAULTS[self.fault]

    def __str__(self) -> str:
        return f"{self.fault}: {self.meaning}\n  evidence: " + "; ".join(self.evidence)


#: Counters ``rdma statistic show`` prints (the rest of a capture is ``ethtool -S``).
RDMA_COUNTERS = ("rx_write_requests", "rx_read_requests", "rx_atomic_requests", "out_of_buffer", "out_of_sequence",
                 "duplicate_request", "rnr_nak_retry_err", "packet_seq_err", "implied_nak_seq_err",
                 "local_ack_timeout_err", "roce_adp_retrans", "roce_adp_retrans_to", "roce_slow_restart",
                 "rp_cnp_ignored", "rp_cnp_handled", "np_ecn_marked_roce_packets", "np_cnp_sent")


def counters_from_run(run, sender: str, receiver: str, priority: int = 3) -> tuple[dict[str, int], dict[str, int]]:
    """The counters the two NICs of a packet-simulator run would show, as ``(sender, receiver)`` dicts.

    ``run`` is a :class:`netlab.sim.results.RunResult`; ``sender`` and ``receiver`` are host names.
    The mapping, per mlx5's meaning of each counter:

    * sender ``rx_prio{p}_pause`` / ``_duration``: pause events of the sender's own port and the
      µs it stood paused; ``tx_prio{p}_packets`` and ``local_ack_timeout_err`` (its flows'
      timeouts), over its flows to ``receiver``;
    * receiver ``tx_prio{p}_pause`` / ``_duration``: pauses the receiver's NIC put on the switch
      port that faces it; ``rx_prio{p}_packets`` and ``out_of_sequence`` (out-of-order arrivals),
      over every flow to ``receiver``.

    The simulator has no bit errors, MTU, DSCP or NACK counts, so the counters of those faults stay
    out (``packet_seq_err`` among them); ECN marks and CNPs are counted by the congestion-control
    objects, not the run, and stay out too. The pause counters are written even for a run without
    PFC (where mlx5 would not show them), as zeros.
    """
    for name in ("flows", "ports", "time_s"):
        if not hasattr(run, name):
            raise TypeError(f"run must be a netlab.sim RunResult (no {name!r}), got {type(run).__name__}")
    for name, host in (("sender", sender), ("receiver", receiver)):
        if not isinstance(host, str):
            raise TypeError(f"{name} must be a host name (a str), got {type(host).__name__} {host!r}")
        if not any(p.name.startswith(host + "[") for p in run.ports):
            raise ValueError(f"{name} must name a host of the run, got {host!r}")
    priority = validate.integer("priority", priority, minimum=0, maximum=7)
    p = f"prio{priority}"
    own = next(port for port in run.ports if port.name.startswith(sender + "["))
    facing = [port for port in run.ports if port.peer == receiver and not port.name.startswith(receiver + "[")]
    sent = [f for f in run.flows if f.src == sender and f.dst == receiver]
    into = [f for f in run.flows if f.dst == receiver]
    s = {f"rx_{p}_pause": own.pause_events, f"rx_{p}_pause_duration": round(own.paused_time_s / us),
         f"tx_{p}_packets": sum(f.packets_sent for f in sent),
         "local_ack_timeout_err": sum(f.timeouts for f in sent)}
    r = {f"tx_{p}_pause": sum(port.pause_events for port in facing),
         f"tx_{p}_pause_duration": round(sum(port.paused_time_s for port in facing) / us),
         f"rx_{p}_packets": sum(f.packets_sent for f in into),
         "out_of_sequence": sum(f.out_of_order_packets for f in into)}
    return s, r


def format_capture(counters: Mapping[str, Mapping[str, int]], device: str = "mlx5_0") -> str:
    """Write ``{host: counters}`` as a capture :func:`parse_capture` reads: per host a ``== host ==``
    line, the ``ethtool -S`` part (``NIC statistics:`` and ``     name: value``) and the
    ``rdma statistic show`` line (``link <device>/1 name value ...``)."""
    if not isinstance(counters, Mapping) or not all(isinstance(c, Mapping) for c in counters.values()):
        raise TypeError("counters must map host names to {counter: value} mappings")
    if not isinstance(device, str):
        raise TypeError(f"device must be a device name (a str) such as 'mlx5_0', got {type(device).__name__}")
    if not device:
        raise ValueError("device must be a device name such as 'mlx5_0', got an empty string")
    lines = []
    for host, values in counters.items():
        lines += [f"== {host} ==", "NIC statistics:"]
        lines += [f"     {k}: {int(v)}" for k, v in values.items() if k not in RDMA_COUNTERS]
        rdma = [f"{k} {int(v)}" for k, v in values.items() if k in RDMA_COUNTERS]
        if rdma:
            lines.append(f"link {device}/1 " + " ".join(rdma))
    return "\n".join(lines) + "\n"


def diagnose(sender: Mapping[str, int], receiver: Mapping[str, int], interval_s: float,
             priority: int = 3) -> Diagnosis:
    """Name the fault behind counter deltas read at both ends of a RoCE flow over ``interval_s``.

    ``sender`` and ``receiver`` are :func:`parse_counters` results (better: :func:`counter_delta`
    of two readings) of the requester's and the responder's NIC; ``priority`` is the lossless
    priority. The rules, in order (a storm causes timeouts elsewhere, so it is checked first):

    1. the receiver sent pauses for half the interval or more, or its pause-storm guard fired: ``pfc_storm``;
    2. the receiver dropped over-long frames (``rx_oversize_pkts_phy``, ``rx_out_of_range_len_phy``): ``mtu_mismatch``;
    3. FCS or symbol errors on the receiver's port: ``lossy_link``;
    4. loss (``out_of_sequence`` / ``packet_seq_err`` / timeouts) with RoCE packets on another priority: ``wrong_priority``;
    5. loss with no pause on the RoCE priority at either end: ``no_pfc``;
    6. ECN marks but no CNP sent: ``no_cnp``;
    7. CNPs sent but all ignored: ``cnp_ignored``;
    8. loss left over (the priority pauses, nothing above explains it): ``unexplained_loss``;
    9. marks answered by CNPs, or pauses, without loss: ``congestion``; otherwise ``healthy``.
    """
    for name, counters in (("sender", sender), ("receiver", receiver)):
        if not isinstance(counters, Mapping):
            raise TypeError(f"{name} must map counter names to values (parse_counters), got {type(counters).__name__}")
    interval_s = validate.positive("interval_s", interval_s)
    priority = validate.integer("priority", priority, minimum=0, maximum=7)
    s = lambda name: int(sender.get(name, 0))        # noqa: E731
    r = lambda name: int(receiver.get(name, 0))      # noqa: E731
    p = f"prio{priority}"
    interval_us = interval_s / us

    storm = r("tx_pause_storm_warning_events") + r("tx_pause_storm_error_events")
    if storm or r(f"tx_{p}_pause_duration") >= 0.5 * interval_us:
        return Diagnosis("pfc_storm", (
            (f"receiver tx_{p}_pause = {r(f'tx_{p}_pause')}, paused its link {r(f'tx_{p}_pause_duration') / interval_us:.0%} "
            f"of the interval"), f"receiver tx_pause_storm_warning/error_events = {storm}",
            f"sender rx_{p}_pause_duration = {s(f'rx_{p}_pause_duration')} µs"))
    oversize = r("rx_oversize_pkts_phy") + r("rx_out_of_range_len_phy")
    if oversize:
        return Diagnosis("mtu_mismatch", (f"receiver rx_oversize_pkts_phy + rx_out_of_range_len_phy = {oversize}",
                                          f"sender local_ack_timeout_err = {s('local_ack_timeout_err')}"))
    phy_errors = r("rx_crc_errors_phy") + r("rx_symbol_err_phy")
    if phy_errors:
        return Diagnosis("lossy_link", (f"receiver rx_crc_errors_phy + rx_symbol_err_phy = {phy_errors}",
                                        f"receiver out_of_sequence = {r('out_of_sequence')}",
                                        f"sender packet_seq_err = {s('packet_seq_err')}"))
    loss = r("out_of_sequence") + s("packet_seq_err") + s("local_ack_timeout_err")
    pauses = s(f"rx_{p}_pause") + r(f"tx_{p}_pause")
    if loss:
        other = {k: v for k, v in receiver.items()
                 if re.fullmatch(r"rx_prio\d_packets", k) and k != f"rx_{p}_packets" and v}
        if other and max(other.values()) > r(f"rx_{p}_packets"):
            name = max(other, key=lambda k: other[k])
            return Diagnosis("wrong_priority", ((f"receiver {name} = {other[name]} but rx_{p}_packets = "
                                                f"{r(f'rx_{p}_packets')}"),
                                                f"receiver out_of_sequence = {r('out_of_sequence')}"))
        if not pauses:
            return Diagnosis("no_pfc", ((f"receiver out_of_sequence = {r('out_of_sequence')}, sender packet_seq_err = "
                                        f"{s('packet_seq_err')}"), f"no pause on priority {priority} at either end"))
    marks = r("np_ecn_marked_roce_packets")
    if marks and not r("np_cnp_sent"):
        return Diagnosis("no_cnp", (f"receiver np_ecn_marked_roce_packets = {marks}, np_cnp_sent = 0",
                                    f"sender rx_{p}_pause = {s(f'rx_{p}_pause')}"))
    if r("np_cnp_sent") and not s("rp_cnp_handled"):
        return Diagnosis("cnp_ignored", (f"receiver np_cnp_sent = {r('np_cnp_sent')}",
                                         f"sender rp_cnp_handled = 0, rp_cnp_ignored = {s('rp_cnp_ignored')}"))
    if loss:
        return Diagnosis("unexplained_loss", ((f"receiver out_of_sequence = {r('out_of_sequence')}, sender "
                                              f"packet_seq_err = {s('packet_seq_err')}, local_ack_timeout_err = "
                                              f"{s('local_ack_timeout_err')}"), f"pauses on priority {priority}: {pauses}"))
    if marks or pauses:
        ecn = (f"receiver np_ecn_marked_roce_packets = {marks}, np_cnp_sent = {r('np_cnp_sent')}, "
               f"sender rp_cnp_handled = {s('rp_cnp_handled')}")
        paused = (f"pauses on priority {priority}: {pauses} (sender paused "
                  f"{s(f'rx_{p}_pause_duration') / interval_us:.0%} of the interval)")
        return Diagnosis("congestion", (ecn, paused) if marks else (paused, ecn))
    return Diagnosis("healthy", ("no loss, no pause, no ECN mark",))
