"""netlab.lossless.counters: perftest and counter parsing on real-format fixtures, and diagnose()."""

import pathlib

import pytest

from netlab.lossless import counters as C, experiments as sc

DATA = pathlib.Path(__file__).resolve().parents[2] / "netlab" / "lossless" / "captures"

API = {
    C.parse_perftest: dict(text=(DATA / "perftest_ib_write_lat.txt").read_text()),
    C.parse_counters: dict(text="NIC statistics:\n     rx_prio3_pause: 10\nlink mlx5_0/1 np_cnp_sent 4"),
    C.parse_capture: dict(text="== a ==\nNIC statistics:\n     rx_prio3_pause: 10\n== b ==\nlink mlx5_0/1 np_cnp_sent 4"),
    C.counter_delta: dict(before={"np_cnp_sent": 1}, after={"np_cnp_sent": 4}),
    C.counters_from_run: dict(run=sc.incast("pfc", 2, size_bytes=8_000).run, sender="h1", receiver="h0", priority=3),
    C.format_capture: dict(counters={"a": {"rx_prio3_pause": 1, "np_cnp_sent": 2}}, device="mlx5_0"),
    C.diagnose: dict(sender={"packet_seq_err": 0}, receiver={"out_of_sequence": 0}, interval_s=10.0, priority=3),
}


def _incident(name):
    capture = C.parse_capture((DATA / f"incident_{name}.txt").read_text())
    return capture["sender"], capture["receiver"]


@pytest.mark.parametrize("name", ["healthy", "congestion", "pfc_storm", "no_cnp", "mtu_mismatch", "lossy_link",
                                  "no_pfc", "wrong_priority"])
def test_each_incident_is_named(name):
    # Each fixture was written for one fault (its first comment line says what happened); the diagnosis
    # must name that fault and nothing else.
    sender, receiver = _incident(name)
    d = C.diagnose(sender, receiver, interval_s=10.0)
    assert d.fault == name, str(d)
    assert d.meaning == C.FAULTS[name]


def test_fixtures_hold_the_documented_counter_names():
    sender, receiver = _incident("congestion")
    for name in ("out_of_sequence", "packet_seq_err", "local_ack_timeout_err", "np_ecn_marked_roce_packets",
                 "np_cnp_sent", "rp_cnp_handled", "rx_prio3_pause", "tx_prio3_pause_duration", "rx_crc_errors_phy"):
        assert name in sender and name in receiver
    assert receiver["np_cnp_sent"] == 41_200 and sender["rp_cnp_handled"] == 41_200


def test_without_pfc_the_pause_counters_are_absent():
    # mlx5 shows rx_prio{p}_pause only for priorities with PFC enabled (kernel counters.rst).
    sender, _ = _incident("no_pfc")
    assert "rx_prio3_pause" not in sender and "rx_prio3_packets" in sender


def test_the_storm_needs_half_the_interval():
    quiet = {"tx_prio3_pause": 10, "tx_prio3_pause_duration": 4_999_999}
    assert C.diagnose({}, quiet, interval_s=10.0).fault == "congestion"
    assert C.diagnose({}, dict(quiet, tx_prio3_pause_duration=5_000_000), interval_s=10.0).fault == "pfc_storm"


def test_the_priority_moves_the_counters_read():
    sender, receiver = _incident("no_pfc")
    moved = {k.replace("prio3", "prio5"): v for k, v in receiver.items()}
    assert C.diagnose(sender, moved, 10.0, priority=5).fault == "no_pfc"


def test_ib_write_bw_in_mib_per_second():
    report = C.parse_perftest((DATA / "perftest_ib_write_bw_sweep.txt").read_text())
    assert report.unit == "MiB/sec" and report.mtu_bytes == 4096 and report.settings["GID index"] == "3"
    assert [r.size_bytes for r in report.rows] == [2 ** k for k in range(1, 24)]
    row = report.rows[15]                                   # 65536 B: 10944.78 MiB/s
    assert row.size_bytes == 65536
    assert row.bw_average_bps == pytest.approx(10944.78 * 1_048_576 * 8)      # 91.81 Gb/s, not 87.56
    assert row.msg_rate_pps == pytest.approx(0.175117e6)
    # bytes x messages per second = bandwidth (perftest's MsgRate is BW / size)
    assert row.msg_rate_pps * row.size_bytes * 8 == pytest.approx(row.bw_average_bps, rel=1e-5)


def test_ib_write_bw_in_gigabits():
    report = C.parse_perftest((DATA / "perftest_ib_write_bw_gbits.txt").read_text())
    (row,) = report.rows
    assert report.unit == "Gb/sec" and report.settings["Number of qps"] == "8"
    assert row.bw_average_bps == pytest.approx(93.78e9) and row.size_bytes == 1_048_576


def test_ib_write_lat():
    report = C.parse_perftest((DATA / "perftest_ib_write_lat.txt").read_text())
    assert [r.size_bytes for r in report.rows] == [2, 64, 1024, 4096, 65536]
    first = report.rows[0]
    assert (first.t_typical_s, first.p999_s) == (pytest.approx(1.52e-6), pytest.approx(4.62e-6))
    assert "typical 1.52 µs" in str(report)


def test_rdma_statistic_lines_may_wrap():
    text = ("link mlx5_0/1 rx_write_requests 0 out_of_sequence\n7 packet_seq_err 3\n"
            "link mlx5_1/1 np_cnp_sent 9")
    assert C.parse_counters(text) == {"rx_write_requests": 0, "out_of_sequence": 7, "packet_seq_err": 3,
                                      "np_cnp_sent": 9}


def test_counter_delta():
    before = C.parse_counters("NIC statistics:\n     rx_prio3_pause: 10\n     rx_crc_errors_phy: 2\n")
    after = C.parse_counters("NIC statistics:\n     rx_prio3_pause: 15\n     rx_crc_errors_phy: 2\n")
    assert C.counter_delta(before, after) == {"rx_prio3_pause": 5, "rx_crc_errors_phy": 0}
    with pytest.raises(ValueError, match="after"):
        C.counter_delta(after, before)


@pytest.mark.parametrize("text, match", [
    ("NIC statistics:\n  rx_packets: 1\n  rx_packets: 2", "twice"),
    ("hello world", "cannot read"),
    ("", "no counters"),
])
def test_bad_counter_text(text, match):
    with pytest.raises(ValueError, match=match):
        C.parse_counters(text)


def test_bad_perftest_text():
    with pytest.raises(ValueError, match="#bytes"):
        C.parse_perftest("RDMA_Write BW Test\n")
    with pytest.raises(ValueError, match="unit"):
        C.parse_perftest(" #bytes     #iterations    BW peak[KB/sec]    BW average[KB/sec]   MsgRate[Mpps]\n 2 5 1 1 1")
    with pytest.raises(TypeError, match="text"):
        C.parse_perftest(None)


def test_bad_diagnose_input():
    with pytest.raises(TypeError, match="sender"):
        C.diagnose([1], {}, 1.0)
    with pytest.raises(ValueError, match="interval_s"):
        C.diagnose({}, {}, 0.0)
    with pytest.raises(ValueError, match="priority"):
        C.diagnose({}, {}, 1.0, priority=8)


# --- the simulator's own incidents, read through the counters ------------------------------------------

@pytest.fixture(scope="module")
def sim_incidents():
    return {"no_pfc": (sc.incast("lossy", 8, buffer_bytes=50e3).run, "h2", "h0"),
            "congestion": (sc.incast("pfc", 8, buffer_bytes=50e3).run, "h1", "h0"),
            "pfc_storm": (sc.pause_storm("pfc").run, "h1", "h4"),
            "healthy": (sc.incast("pfc", 1).run, "h1", "h0")}


@pytest.mark.parametrize("name", ["no_pfc", "congestion", "pfc_storm", "healthy"])
def test_simulated_incidents_are_named_from_their_counters(sim_incidents, name):
    # Each run is written out in the tools' formats, read back, and diagnosed over the run's length.
    run, sender, receiver = sim_incidents[name]
    s, r = C.counters_from_run(run, sender, receiver)
    capture = C.parse_capture(C.format_capture({"sender": s, "receiver": r}))
    assert capture == {"sender": s, "receiver": r}
    assert C.diagnose(capture["sender"], capture["receiver"], run.time_s).fault == name


def test_counters_from_run_reads_the_right_ports(sim_incidents):
    # In the storm, h4's NIC pauses the switch port that faces it (s1[1]) from 10 us to the end
    # (300 us): 290 us. The sender h1's own port is paused too, through the chain of pauses.
    run, sender, receiver = sim_incidents["pfc_storm"]
    s, r = C.counters_from_run(run, sender, receiver)
    facing = next(p for p in run.ports if p.name == "s1[1]")
    assert facing.peer == "h4" and r["tx_prio3_pause_duration"] == round(facing.paused_time_s * 1e6) == 290
    assert s["rx_prio3_pause"] == next(p for p in run.ports if p.name == "h1[0]").pause_events == 1
    # The lossy incast: out_of_sequence counts every flow into h0; timeouts only h2's own.
    run, sender, receiver = sim_incidents["no_pfc"]
    s, r = C.counters_from_run(run, sender, receiver)
    assert r["out_of_sequence"] == sum(f.out_of_order_packets for f in run.flows if f.dst == "h0") > 0
    assert s["local_ack_timeout_err"] == sum(f.timeouts for f in run.flows if f.src == "h2") > 0
    with pytest.raises(ValueError, match="receiver"):
        C.counters_from_run(run, "h2", "h99")
