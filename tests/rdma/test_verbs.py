"""netlab.rdma: the QP state machine, every opcode against numpy, atomics, every error path,
completion ordering, and the simulated clock against a hand computation."""

import itertools

from hypothesis import given, settings, strategies as st
import numpy as np
import pytest

from netlab import rdma, specs
from netlab.rdma import Access, Opcode, QPState, RecvWR, SendWR, VerbsError, WCOpcode, WCStatus
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

_F = rdma.Fabric(100e9)
_QPS = [rdma.endpoint(_F, h).qp for h in ("x", "y")]   # only bad values reach connect: never modified
API = {
    rdma.Fabric: dict(bandwidth_bps=100e9, hops=1, seed=0),
    rdma.connect: dict(qp_a=_QPS[0], qp_b=_QPS[1], timeout=14, retry_cnt=7, rnr_retry=6),
    rdma.endpoint: dict(fabric=rdma.Fabric(100e9), host="sweep", max_send_wr=128),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


ALL = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC
S = QPState


def pair(access=ALL, bandwidth_bps=100e9):
    fabric = rdma.Fabric(bandwidth_bps)
    a, b = rdma.endpoint(fabric, "a"), rdma.endpoint(fabric, "b")
    rdma.connect(a.qp, b.qp, access=access)
    return a, b


def buffers(a, b, n=64, a_access=ALL, b_access=ALL, seed=0):
    rng = np.random.default_rng(seed)
    xa = rng.integers(0, 256, n, dtype=np.uint8)
    xb = rng.integers(0, 256, n, dtype=np.uint8)
    return xa, a.pd.reg_mr(xa, a_access), xb, b.pd.reg_mr(xb, b_access)


# --- the state machine --------------------------------------------------------------------
# Independent reference: the Linux kernel's qp_state_table (drivers/infiniband/core/verbs.c),
# rows RESET..ERR, without SQD/SQE; IBTA 10.3.1: error from any state except Reset.
KERNEL_TABLE = {
    "RESET": ["RESET", "INIT"],
    "INIT": ["RESET", "ERR", "INIT", "RTR"],
    "RTR": ["RESET", "ERR", "RTS"],
    "RTS": ["RESET", "ERR", "RTS"],
    "ERR": ["RESET", "ERR"],
}


# The kernel table's req_param masks for an RC QP, in the emulation's attribute names
# (IB_QP_ACCESS_FLAGS; IB_QP_AV + IB_QP_DEST_QPN; IB_QP_TIMEOUT, IB_QP_RETRY_CNT, IB_QP_RNR_RETRY).
KERNEL_REQUIRED = {("RESET", "INIT"): {"access"}, ("INIT", "RTR"): {"dest_host", "dest_qp_num"},
                   ("RTR", "RTS"): {"timeout", "retry_cnt", "rnr_retry"}}


def required_attrs(src, dst, b_qpn):
    values = dict(access=Access.NONE, dest_host="b", dest_qp_num=b_qpn, timeout=14, retry_cnt=7, rnr_retry=6)
    return {k: values[k] for k in KERNEL_REQUIRED.get((src.value, dst.value), set())}


def qp_in(state):
    fabric = rdma.Fabric(100e9)
    a, b = rdma.endpoint(fabric, "a"), rdma.endpoint(fabric, "b")
    path = {"RESET": [], "INIT": ["INIT"], "RTR": ["INIT", "RTR"], "RTS": ["INIT", "RTR", "RTS"],
            "ERR": ["INIT", "RTR", "RTS", "ERR"]}[state.value]
    for step in path:
        a.qp.modify(S[step], **required_attrs(a.qp.state, S[step], b.qp.qp_num))
    assert a.qp.state is state
    return a


@pytest.mark.parametrize("src,dst", list(itertools.product(S, S)), ids=lambda s: s.value)
def test_every_transition(src, dst):
    a = qp_in(src)
    kwargs = required_attrs(src, dst, a.ctx.fabric.hosts["b"].qps[0x40].qp_num)
    if dst.value in KERNEL_TABLE[src.value]:
        a.qp.modify(dst, **kwargs)
        assert a.qp.state is dst
    else:
        with pytest.raises(VerbsError, match="EINVAL"):
            a.qp.modify(dst, **kwargs)
        assert a.qp.state is src


@pytest.mark.parametrize("src,dst", [(s, d) for s in S for d in S if d.value in KERNEL_TABLE[s.value]],
                         ids=str)
def test_transitions_refuse_a_missing_or_foreign_attribute(src, dst):
    """ibverbs returns EINVAL when a required attribute is missing or the mask holds one the
    transition does not take; the QP stays as it was."""
    a = qp_in(src)
    kwargs = required_attrs(src, dst, a.ctx.fabric.hosts["b"].qps[0x40].qp_num)
    for missing in kwargs:
        with pytest.raises(VerbsError, match=missing):
            a.qp.modify(dst, **{k: v for k, v in kwargs.items() if k != missing})
        assert a.qp.state is src
    # dest_host is taken only by INIT -> RTR
    if (src.value, dst.value) != ("INIT", "RTR"):
        with pytest.raises(VerbsError, match="dest_host"):
            a.qp.modify(dst, **kwargs, dest_host="b")
        assert a.qp.state is src


def test_rtr_needs_a_real_destination():
    a = qp_in(S.INIT)
    with pytest.raises(VerbsError):
        a.qp.modify(S.RTR, dest_host="nowhere", dest_qp_num=1)
    with pytest.raises(VerbsError):
        a.qp.modify(S.RTR, dest_host="b", dest_qp_num=12345)
    assert a.qp.state is S.INIT


@pytest.mark.parametrize("state", [S.RESET, S.INIT, S.RTR])
def test_post_send_before_rts_is_refused(state):
    a = qp_in(state)
    x = np.zeros(8, np.uint8)
    mr = a.pd.reg_mr(x)
    with pytest.raises(VerbsError, match="RTS"):
        a.qp.post_send(SendWR(1, Opcode.SEND, (mr.sge(),)))
    assert len(a.send_cq) == 0


def test_post_recv_in_reset_refused_and_allowed_from_init():
    a = qp_in(S.RESET)
    mr = a.pd.reg_mr(np.zeros(8, np.uint8), Access.LOCAL_WRITE)
    with pytest.raises(VerbsError):
        a.qp.post_recv(RecvWR(1, (mr.sge(),)))
    a.qp.modify(S.INIT, access=Access.NONE)
    a.qp.post_recv(RecvWR(1, (mr.sge(),)))
    assert len(a.qp.recv_queue) == 1


def test_err_flushes_posted_and_later_requests():
    a, b = pair()
    xa, ma, xb, mb = buffers(a, b)
    for i in range(3):
        a.qp.post_recv(RecvWR(i, (ma.sge(),)))
    a.qp.modify(S.ERR)
    flushed = a.recv_cq.poll(10)
    assert [w.wr_id for w in flushed] == [0, 1, 2]
    assert all(w.status is WCStatus.WR_FLUSH_ERR for w in flushed)
    before = xb.copy()
    a.qp.post_send(SendWR(7, Opcode.RDMA_WRITE, (ma.sge(),), mb.addr, mb.rkey))
    a.qp.post_recv(RecvWR(8, (ma.sge(),)))
    assert a.send_cq.poll()[0].status is WCStatus.WR_FLUSH_ERR
    assert a.recv_cq.poll()[0].status is WCStatus.WR_FLUSH_ERR
    assert np.array_equal(xb, before)
    a.qp.modify(S.RESET)            # and back: RESET clears the error
    assert a.qp.state is S.RESET and a.qp.remote is None


# --- every opcode's effect on memory ----------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 200), split=st.integers(0, 200), seed=st.integers(0, 2**32 - 1))
def test_send_scatters_into_posted_receive(n, split, seed):
    a, b = pair()
    rng = np.random.default_rng(seed)
    src = rng.integers(0, 256, n, dtype=np.uint8)
    dst = np.zeros(n + 16, np.uint8)
    m_src, m_dst = a.pd.reg_mr(src), b.pd.reg_mr(dst, Access.LOCAL_WRITE)
    k = min(split, n)
    b.qp.post_recv(RecvWR(5, (m_dst.sge(0, k), m_dst.sge(k, n + 16 - k))))
    a.qp.post_send(SendWR(9, Opcode.SEND, (m_src.sge(),)))
    wc = b.recv_cq.poll()[0]
    assert (wc.status, wc.opcode, wc.byte_len, wc.wr_id) == (WCStatus.SUCCESS, WCOpcode.RECV, n, 5)
    assert np.array_equal(dst[:n], src) and not dst[n:].any()
    assert a.send_cq.poll()[0].opcode is WCOpcode.SEND


@settings(max_examples=40, deadline=None)
@given(off=st.integers(0, 63), length=st.integers(0, 64), seed=st.integers(0, 2**32 - 1))
def test_rdma_write_and_read_against_numpy(off, length, seed):
    length = min(length, 64 - off)
    a, b = pair()
    xa, ma, xb, mb = buffers(a, b, seed=seed)
    expect_b = xb.copy()
    expect_b[off:off + length] = xa[:length]
    a.qp.post_send(SendWR(1, Opcode.RDMA_WRITE, (ma.sge(0, length),), mb.addr + off, mb.rkey))
    assert a.send_cq.poll()[0].ok
    assert np.array_equal(xb, expect_b)
    assert len(b.recv_cq) == 0                 # one-sided: nothing for the remote CPU
    # READ the same region back into a's buffer at a different offset
    expect_a = xa.copy()
    dst = 64 - length
    expect_a[dst:dst + length] = xb[off:off + length]
    a.qp.post_send(SendWR(2, Opcode.RDMA_READ, (ma.sge(dst, length),), mb.addr + off, mb.rkey))
    wc = a.send_cq.poll()[0]
    assert wc.ok and wc.opcode is WCOpcode.RDMA_READ
    assert np.array_equal(xa, expect_a)


def test_write_with_imm_consumes_a_receive_but_not_its_buffer():
    a, b = pair()
    xa, ma, xb, mb = buffers(a, b)
    spare = np.full(8, 7, np.uint8)
    b.qp.post_recv(RecvWR(3, (b.pd.reg_mr(spare, Access.LOCAL_WRITE).sge(),)))
    a.qp.post_send(SendWR(1, Opcode.RDMA_WRITE_WITH_IMM, (ma.sge(0, 16),), mb.addr, mb.rkey, imm_data=0xBEEF))
    wc = b.recv_cq.poll()[0]
    assert (wc.opcode, wc.imm_data, wc.byte_len, wc.wr_id) == (WCOpcode.RECV_RDMA_WITH_IMM, 0xBEEF, 16, 3)
    assert np.array_equal(xb[:16], xa[:16]) and (spare == 7).all()


def atomic(a, ma, mb, op, offset=0, compare_add=0, swap=0):
    a.qp.post_send(SendWR(1, op, (ma.sge(0, 8),), mb.addr + offset, mb.rkey, compare_add=compare_add, swap=swap))
    return a.send_cq.poll()[0]


def test_fetch_and_add_is_64_bit_and_returns_old_value():
    a, b = pair()
    ra, rb = np.zeros(2, np.uint64), np.array([2**64 - 1, 5], np.uint64)
    ma, mb = a.pd.reg_mr(ra, ALL), b.pd.reg_mr(rb, ALL)
    wc = atomic(a, ma, mb, Opcode.ATOMIC_FETCH_AND_ADD, compare_add=2)
    assert wc.ok and wc.opcode is WCOpcode.FETCH_ADD
    assert ra[0] == 2**64 - 1            # old value
    assert rb[0] == (np.array([2**64 - 1], np.uint64) + np.uint64(2))[0] == 1   # numpy wraps mod 2**64
    assert rb[1] == 5                    # neighbour untouched


def test_compare_and_swap_hit_and_miss():
    a, b = pair()
    ra, rb = np.zeros(1, np.uint64), np.array([42], np.uint64)
    ma, mb = a.pd.reg_mr(ra, ALL), b.pd.reg_mr(rb, ALL)
    assert atomic(a, ma, mb, Opcode.ATOMIC_CMP_AND_SWP, compare_add=41, swap=7).opcode is WCOpcode.COMP_SWAP
    assert (ra[0], rb[0]) == (42, 42)    # miss: unchanged, old value returned
    atomic(a, ma, mb, Opcode.ATOMIC_CMP_AND_SWP, compare_add=42, swap=2**64 - 3)
    assert (ra[0], rb[0]) == (42, 2**64 - 3)


@settings(max_examples=30, deadline=None)
@given(adds=st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=12), start=st.integers(0, 2**64 - 1))
def test_fetch_and_add_sequence_is_sum_mod_2_64(adds, start):
    a, b = pair()
    ra, rb = np.zeros(1, np.uint64), np.array([start], np.uint64)
    ma, mb = a.pd.reg_mr(ra, ALL), b.pd.reg_mr(rb, ALL)
    total = start
    for x in adds:
        atomic(a, ma, mb, Opcode.ATOMIC_FETCH_AND_ADD, compare_add=x)
        assert int(ra[0]) == total       # each returns the value before it
        total = (total + x) % 2**64
    assert int(rb[0]) == total


# --- every error path: an error completion, QP in ERR, memory untouched ---------------------
def check_fault(a, b, xb, before, status, responder_err):
    wc = a.send_cq.poll()[0]
    assert wc.status is status
    assert a.qp.state is S.ERR
    assert b.qp.state is (S.ERR if responder_err else S.RTS)
    assert np.array_equal(xb, before)


@pytest.mark.parametrize("case", ["bad rkey", "other PD", "no MR flag", "no QP flag", "out of bounds",
                                  "deregistered"])
def test_remote_access_faults_on_write(case):
    qp_access = Access.REMOTE_READ if case == "no QP flag" else ALL
    a, b = pair(access=qp_access)
    xa, ma, xb, mb = buffers(a, b, b_access=Access.LOCAL_WRITE | Access.REMOTE_READ if case == "no MR flag" else ALL)
    rkey, addr, n = mb.rkey, mb.addr, 16
    if case == "bad rkey":
        rkey = mb.rkey + 1
    elif case == "other PD":
        other = np.zeros(64, np.uint8)
        other_mr = b.ctx.alloc_pd().reg_mr(other, ALL)    # right host, wrong protection domain
        rkey, addr = other_mr.rkey, other_mr.addr
    elif case == "out of bounds":
        addr = mb.addr + 60                 # 16 bytes from byte 60 of 64
    elif case == "deregistered":
        mb.dereg()
    before = xb.copy()
    a.qp.post_send(SendWR(1, Opcode.RDMA_WRITE, (ma.sge(0, n),), addr, rkey))
    check_fault(a, b, xb, before, WCStatus.REM_ACCESS_ERR, responder_err=True)


@pytest.mark.parametrize("op,flag", [(Opcode.RDMA_READ, Access.REMOTE_READ),
                                     (Opcode.ATOMIC_FETCH_AND_ADD, Access.REMOTE_ATOMIC),
                                     (Opcode.ATOMIC_CMP_AND_SWP, Access.REMOTE_ATOMIC)])
def test_missing_remote_flag_for_read_and_atomics(op, flag):
    a, b = pair()
    xa, ma, xb, mb = buffers(a, b, b_access=ALL & ~flag)
    before_a, before_b = xa.copy(), xb.copy()
    a.qp.post_send(SendWR(1, op, (ma.sge(0, 8),), mb.addr, mb.rkey, compare_add=1, swap=2))
    check_fault(a, b, xb, before_b, WCStatus.REM_ACCESS_ERR, responder_err=True)
    assert np.array_equal(xa, before_a)


def test_misaligned_atomic_is_an_invalid_request():
    a, b = pair()
    xa, ma, xb, mb = buffers(a, b)
    before = xb.copy()
    a.qp.post_send(SendWR(1, Opcode.ATOMIC_FETCH_AND_ADD, (ma.sge(0, 8),), mb.addr + 4, mb.rkey, compare_add=1))
    check_fault(a, b, xb, before, WCStatus.REM_INV_REQ_ERR, responder_err=True)


@pytest.mark.parametrize("case", ["bad lkey", "local out of bounds", "read into read-only MR", "atomic length"])
def test_local_faults(case):
    a, b = pair()
    xa, ma, xb, mb = buffers(a, b, a_access=Access.NONE if case == "read into read-only MR" else ALL)
    op, sge = Opcode.RDMA_WRITE, ma.sge(0, 16)
    status = WCStatus.LOC_PROT_ERR
    if case == "bad lkey":
        sge = rdma.SGE(ma.addr, 16, ma.lkey + 7)
    elif case == "local out of bounds":
        sge = rdma.SGE(ma.addr + 56, 16, ma.lkey)
    elif case == "read into read-only MR":
        op = Opcode.RDMA_READ
    else:
        op, sge, status = Opcode.ATOMIC_FETCH_AND_ADD, ma.sge(0, 4), WCStatus.LOC_LEN_ERR
    before_a, before_b = xa.copy(), xb.copy()
    a.qp.post_send(SendWR(1, op, (sge,), mb.addr, mb.rkey))
    check_fault(a, b, xb, before_b, status, responder_err=False)
    assert np.array_equal(xa, before_a)


@pytest.mark.parametrize("op", [Opcode.SEND, Opcode.RDMA_WRITE_WITH_IMM])
def test_no_posted_receive_is_receiver_not_ready(op):
    a, b = pair()
    xa, ma, xb, mb = buffers(a, b)
    before = xb.copy()
    t0 = a.ctx.clock_s
    a.qp.post_send(SendWR(1, op, (ma.sge(0, 8),), mb.addr, mb.rkey, imm_data=1))
    wc = a.send_cq.poll()[0]
    assert wc.status is WCStatus.RNR_RETRY_EXC_ERR
    assert a.qp.state is S.ERR and b.qp.state is S.RTS
    assert np.array_equal(xb, before)
    # it took rnr_retry (6) RNR timer periods longer than a round trip
    assert wc.time_s - t0 > 6 * specs.value("rdma.assume.rnr_timer")


def test_receive_too_small_and_receive_without_local_write():
    for recv_access, req, resp in [(ALL, WCStatus.REM_INV_REQ_ERR, WCStatus.LOC_LEN_ERR),
                                   (Access.NONE, WCStatus.REM_OP_ERR, WCStatus.LOC_PROT_ERR)]:
        a, b = pair()
        xa, ma, xb, mb = buffers(a, b, b_access=recv_access)
        before = xb.copy()
        size = 8 if recv_access == ALL else 64
        b.qp.post_recv(RecvWR(4, (mb.sge(0, size),)))
        b.qp.post_recv(RecvWR(5, (mb.sge(0, size),)))
        a.qp.post_send(SendWR(1, Opcode.SEND, (ma.sge(0, 32),)))
        check_fault(a, b, xb, before, req, responder_err=True)
        got = b.recv_cq.poll(5)
        assert [(w.wr_id, w.status) for w in got] == [(4, resp), (5, WCStatus.WR_FLUSH_ERR)]


def test_peer_not_ready_times_out_after_retries():
    a, b = pair()
    xa, ma, xb, mb = buffers(a, b)
    b.qp.modify(S.RESET)
    t0 = a.ctx.clock_s
    a.qp.post_send(SendWR(1, Opcode.RDMA_WRITE, (ma.sge(0, 8),), mb.addr, mb.rkey))
    wc = a.send_cq.poll()[0]
    assert wc.status is WCStatus.RETRY_EXC_ERR and a.qp.state is S.ERR
    # IBTA: (retry_cnt + 1) attempts of 4.096 µs * 2**timeout = 8 * 4.096e-6 * 16384 s = 0.537 s
    assert wc.time_s - t0 == pytest.approx(8 * 4.096e-6 * 2**14)


def test_registration_rules():
    fabric = rdma.Fabric(100e9)
    pd = rdma.endpoint(fabric, "a").pd
    for flags in (Access.REMOTE_WRITE, Access.REMOTE_ATOMIC):
        with pytest.raises(VerbsError, match="LOCAL_WRITE"):
            pd.reg_mr(np.zeros(8, np.uint8), flags)
    assert pd.reg_mr(np.zeros(8, np.uint8), Access.REMOTE_READ).access is Access.REMOTE_READ
    with pytest.raises(ValueError):
        pd.reg_mr(np.zeros((4, 4), np.uint8)[:, 0])      # not contiguous
    with pytest.raises(TypeError):
        pd.reg_mr([0] * 8)


# --- ordering and time ------------------------------------------------------------------------
def test_rc_completions_arrive_in_posting_order():
    a, b = pair()
    big = np.zeros(1 << 20, np.uint8)
    mbig, msmall = a.pd.reg_mr(big, ALL), a.pd.reg_mr(np.ones(8, np.uint8), ALL)
    target = b.pd.reg_mr(np.zeros(1 << 20, np.uint8), ALL)
    for i in range(4):
        b.qp.post_recv(RecvWR(100 + i, (target.sge(),)))
    sizes = [mbig.sge(), msmall.sge(), mbig.sge(0, 4096), msmall.sge()]
    for i, sge in enumerate(sizes):
        a.qp.post_send(SendWR(i, Opcode.SEND, (sge,)))
    sends, recvs = a.send_cq.poll(10), b.recv_cq.poll(10)
    assert [w.wr_id for w in sends] == [0, 1, 2, 3]
    assert [w.wr_id for w in recvs] == [100, 101, 102, 103]
    for wcs in (sends, recvs):
        times = [w.time_s for w in wcs]
        assert times == sorted(times)
    # a small SEND posted after a 1 MiB one cannot complete before it
    assert sends[1].time_s >= sends[0].time_s


def test_ping_pong_half_round_trip_by_hand():
    # One-way = post + (nic_tx + 1 hop + nic_rx + 64 bits / 100 Gb/s) + poll
    #         = 0.1 + 0.25 + 0.5 + 0.2 + 0.00064 + 0.05 µs = 1.10064 µs
    a, b = pair()
    xa, ma, xb, mb = buffers(a, b, n=8)
    n_iter = 20
    for i in range(n_iter):
        a.qp.post_recv(RecvWR(i, (ma.sge(),)))
        b.qp.post_recv(RecvWR(i, (mb.sge(),)))
    a.ctx.clock_s = b.ctx.clock_s = 0.0
    for i in range(n_iter):
        a.qp.post_send(SendWR(i, Opcode.SEND, (ma.sge(),)))
        assert b.recv_cq.poll()[0].ok
        b.qp.post_send(SendWR(i, Opcode.SEND, (mb.sge(),)))
        assert a.recv_cq.poll()[0].ok
    assert a.ctx.clock_s / (2 * n_iter) == pytest.approx(1.10064e-6, rel=1e-9)


def test_read_takes_a_round_trip():
    # RDMA_READ of 4096 B: request (no payload) + response (4096 B) = 2 x 0.95 µs + 4096*8/100e9
    a, b = pair()
    xa, ma, xb, mb = buffers(a, b, n=4096)
    t0 = a.ctx.clock_s + 0.1e-6              # after the post
    a.qp.post_send(SendWR(1, Opcode.RDMA_READ, (ma.sge(),), mb.addr, mb.rkey))
    wc = a.send_cq.poll()[0]
    assert wc.time_s - t0 == pytest.approx(2 * 0.95e-6 + 4096 * 8 / 100e9, rel=1e-9)
    assert np.array_equal(xa, xb)


def test_poll_bad_input_and_reprs():
    a, b = pair()
    with pytest.raises(ValueError, match="max_entries"):
        a.send_cq.poll(0)
    with pytest.raises(TypeError):
        a.qp.post_send("SEND")
    assert "RTS" in repr(a.qp) and "Fabric" in repr(a.ctx.fabric) and "clock" in repr(a.ctx)
    xa, ma, xb, mb = buffers(a, b)
    assert "lkey" in repr(ma)
    a.qp.post_send(SendWR(1, Opcode.RDMA_WRITE, (ma.sge(),), mb.addr, mb.rkey))
    assert "IBV_WC_SUCCESS" in repr(a.send_cq.poll()[0])


def test_unsignaled_sends_complete_silently_unless_they_fail():
    a, b = pair()
    xa, ma, xb, mb = buffers(a, b)
    a.qp.post_send(SendWR(1, Opcode.RDMA_WRITE, (ma.sge(0, 8),), mb.addr, mb.rkey, signaled=False))
    assert len(a.send_cq) == 0 and np.array_equal(xb[:8], xa[:8])
    a.qp.post_send(SendWR(2, Opcode.RDMA_WRITE, (ma.sge(0, 8),), mb.addr, mb.rkey + 1, signaled=False))
    assert a.send_cq.poll()[0].status is WCStatus.REM_ACCESS_ERR


def test_malformed_requests_are_programming_errors():
    a, b = pair()
    xa, ma, xb, mb = buffers(a, b)
    with pytest.raises(ValueError, match="imm_data"):
        a.qp.post_send(SendWR(1, Opcode.RDMA_WRITE_WITH_IMM, (ma.sge(),), mb.addr, mb.rkey, imm_data=2**32))
    with pytest.raises(TypeError, match="sg_list"):
        a.qp.post_send(SendWR(1, Opcode.SEND, ((ma.addr, 8, ma.lkey),)))
    assert a.qp.state is S.RTS


@settings(max_examples=80, deadline=None)
@given(op=st.sampled_from(list(Opcode)), key_off=st.sampled_from([0, 0, 0, 1]),
       off=st.integers(-16, 80), length=st.sampled_from([0, 1, 8, 16, 40]),
       flags=st.sampled_from([ALL, Access.LOCAL_WRITE, Access.LOCAL_WRITE | Access.REMOTE_READ]),
       recv=st.booleans())
def test_memory_changes_only_where_a_successful_request_points(op, key_off, off, length, flags, recv):
    """Whatever the request, the remote region changes only inside [off, off + length) and only
    if the request succeeded; a failed request leaves both hosts' memory as it was."""
    a, b = pair()
    xa, ma, xb, mb = buffers(a, b, b_access=flags)
    sink = np.zeros(64, np.uint8)
    if recv:
        b.qp.post_recv(RecvWR(9, (b.pd.reg_mr(sink, Access.LOCAL_WRITE).sge(),)))
    before_a, before_b, before_sink = xa.copy(), xb.copy(), sink.copy()
    atomic_op = op in (Opcode.ATOMIC_FETCH_AND_ADD, Opcode.ATOMIC_CMP_AND_SWP)
    n = 8 if atomic_op else length
    a.qp.post_send(SendWR(1, op, (ma.sge(0, n),), mb.addr + off, mb.rkey + key_off, imm_data=3,
                          compare_add=int(before_b[:8].view(np.uint64)[0]) if off == 0 else 1, swap=77))
    wc = a.send_cq.poll()[0]
    if not wc.ok:
        assert np.array_equal(xa, before_a) and np.array_equal(xb, before_b) and np.array_equal(sink, before_sink)
        assert a.qp.state is S.ERR
        return
    changed = np.flatnonzero(xb != before_b)
    if op is Opcode.SEND:
        assert changed.size == 0 and np.array_equal(sink[:n], xa[:n])
    else:
        assert changed.size == 0 or (changed.min() >= off and changed.max() < off + n)
