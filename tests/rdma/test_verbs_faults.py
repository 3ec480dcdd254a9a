"""netlab.rdma fails as real verbs fail (issue 17): per-device random keys, the zero-length rule of
IBTA C9-88, ibverbs' attribute masks, a refused modify that changes nothing, timeout=0 = wait
forever, integer addresses and operands. References are the specs and the kernel, not the code."""

import numpy as np
import pytest

from netlab import rdma
from netlab.rdma import Access, Opcode, QPState, RecvWR, SendWR, VerbsError, WCStatus

S = QPState
ALL = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC


def pair(access=ALL, seed=0, **connect):
    fabric = rdma.Fabric(100e9, seed=seed)
    a, b = rdma.endpoint(fabric, "a"), rdma.endpoint(fabric, "b")
    rdma.connect(a.qp, b.qp, access=access, **connect)
    return a, b


def mrs(a, b, n=64):
    xa, xb = np.arange(n, dtype=np.uint8), np.zeros(n, np.uint8)
    return xa, a.pd.reg_mr(xa, ALL), xb, b.pd.reg_mr(xb, ALL)


# --- keys ---------------------------------------------------------------------------------
def test_local_key_used_as_remote_key_is_a_remote_access_error():
    """Before: both hosts numbered keys from 0x1000, so the slip wrote into b. After: REM_ACCESS_ERR."""
    a, b = pair()
    xa, ma, xb, mb = mrs(a, b)
    assert ma.lkey != mb.rkey
    a.qp.post_send(SendWR(1, Opcode.RDMA_WRITE, (ma.sge(),), mb.addr, ma.lkey))   # the slip
    wc = a.send_cq.poll()[0]
    assert wc.status is WCStatus.REM_ACCESS_ERR
    assert not xb.any()                   # b's memory untouched
    assert a.qp.state is S.ERR


def test_keys_are_random_per_device_reproducible_per_seed_and_unique():
    def keys(seed):
        fabric = rdma.Fabric(100e9, seed=seed)
        out = []
        for host in ("a", "b", "c"):
            pd = rdma.endpoint(fabric, host).pd
            out += [pd.reg_mr(np.zeros(8, np.uint8)).lkey for _ in range(20)]
        return out
    k0 = keys(0)
    assert k0 == keys(0)                  # deterministic for a seed
    assert k0 != keys(1)
    assert len(set(k0)) == len(k0)        # never repeated on a fabric
    assert all(0 < k < 2**32 for k in k0)
    assert k0[0] != k0[20] != k0[40]      # the first key of each device differs
    steps = {k0[i + 1] - k0[i] for i in range(19)}
    assert len(steps) > 1                 # not an arithmetic sequence: unpredictable


def test_mlx5_key_layout_follows_the_driver():
    """Linux mlx5 (drivers/infiniband/hw/mlx5/mr.c): lkey == rkey, low byte from a per-device counter
    incremented before use (atomic_inc_return), upper 24 bits the key-table index (index << 8)."""
    fabric = rdma.Fabric(100e9, key_layout="mlx5")
    pd = rdma.endpoint(fabric, "a").pd
    mrs_ = [pd.reg_mr(np.zeros(8, np.uint8)) for _ in range(3)]
    assert [m.lkey for m in mrs_] == [m.rkey for m in mrs_]
    assert [m.lkey & 0xFF for m in mrs_] == [1, 2, 3]
    assert [m.lkey >> 8 for m in mrs_] == [rdma.verbs.MLX5_FIRST_INDEX + i for i in range(3)]
    mrs_[1].dereg()                       # the slot is reused, with a new variant byte
    again = pd.reg_mr(np.zeros(8, np.uint8))
    assert again.lkey >> 8 == mrs_[1].lkey >> 8 and again.lkey & 0xFF == 4
    assert again.lkey != mrs_[1].lkey     # so the stale key no longer works
    for _ in range(252):
        pd.reg_mr(np.zeros(8, np.uint8)).dereg()
    assert pd.reg_mr(np.zeros(8, np.uint8)).lkey & 0xFF == 1    # the u8 counter wraps: 256 -> 0, 257 -> 1


def test_mlx5_keys_repeat_across_hosts_so_the_slip_can_succeed():
    """ReDMArk's point: keys are predictable. Two hosts registering in the same order hand out the same
    key values, so the own-lkey slip writes into the peer's region with a success completion."""
    fabric = rdma.Fabric(100e9, key_layout="mlx5")
    a, b = rdma.endpoint(fabric, "a"), rdma.endpoint(fabric, "b")
    rdma.connect(a.qp, b.qp, access=ALL)
    xa, ma, xb, mb = mrs(a, b)
    assert ma.lkey == mb.rkey
    a.qp.post_send(SendWR(1, Opcode.RDMA_WRITE, (ma.sge(),), mb.addr, ma.lkey))   # the slip
    assert a.send_cq.poll()[0].status is WCStatus.SUCCESS
    assert np.array_equal(xb, xa)         # written by luck
    b.pd.reg_mr(np.zeros(8, np.uint8))    # an asymmetric program: b registers one more region
    mc = b.pd.reg_mr(np.zeros(64, np.uint8), ALL)
    mine = a.pd.reg_mr(np.zeros(64, np.uint8), ALL)
    assert mine.lkey != mc.rkey           # the luck runs out: the same slip now faults
    a.qp.post_send(SendWR(2, Opcode.RDMA_WRITE, (mine.sge(),), mc.addr, mine.lkey))
    assert a.send_cq.poll()[0].status is WCStatus.REM_ACCESS_ERR


def test_key_layout_is_validated():
    with pytest.raises(ValueError, match="key_layout"):
        rdma.Fabric(100e9, key_layout="mlx4")


# --- the send queue's depth and selective signalling (review D16) -----------------------------
def small_sq_pair(depth):
    fabric = rdma.Fabric(100e9)
    a, b = rdma.endpoint(fabric, "a", max_send_wr=depth), rdma.endpoint(fabric, "b")
    rdma.connect(a.qp, b.qp, access=ALL)
    return a, b


def test_unsignaled_requests_fill_the_send_queue():
    """ibv_post_send(3): a request holds its send-queue slot until a completion at or after it is
    polled; an all-unsignaled stream therefore fails with ENOMEM after max_send_wr posts."""
    a, b = small_sq_pair(4)
    xa, ma, xb, mb = mrs(a, b)
    for i in range(4):
        a.qp.post_send(SendWR(i, Opcode.RDMA_WRITE, (ma.sge(),), mb.addr, mb.rkey, signaled=False))
    with pytest.raises(VerbsError, match="ENOMEM"):
        a.qp.post_send(SendWR(4, Opcode.RDMA_WRITE, (ma.sge(),), mb.addr, mb.rkey, signaled=False))


def test_one_signaled_request_in_n_keeps_the_queue_flowing():
    a, b = small_sq_pair(4)
    xa, ma, xb, mb = mrs(a, b)
    for i in range(40):                      # every 4th request signaled, its completion polled
        a.qp.post_send(SendWR(i, Opcode.RDMA_WRITE, (ma.sge(),), mb.addr, mb.rkey, signaled=i % 4 == 3))
        if i % 4 == 3:
            assert a.send_cq.poll()[0].wr_id == i
    a.qp.post_send(SendWR(40, Opcode.RDMA_WRITE, (ma.sge(),), mb.addr, mb.rkey))
    a.qp.post_send(SendWR(41, Opcode.RDMA_WRITE, (ma.sge(),), mb.addr, mb.rkey))   # not polled yet: still fine
    a.qp.modify(QPState.RESET)               # RESET empties the queue
    assert a.qp.max_send_wr == 4
    with pytest.raises(ValueError, match="max_send_wr"):
        a.pd.create_qp(a.send_cq, a.recv_cq, max_send_wr=0)


# --- affiliated asynchronous events (review D16) ---------------------------------------------
def test_responder_learns_of_its_fault_from_an_async_event():
    """The requester gets REM_ACCESS_ERR in its completion; the responder, which posted nothing,
    gets IBV_EVENT_QP_ACCESS_ERR (ibv_get_async_event(3)); a misaligned atomic gives QP_REQ_ERR."""
    a, b = pair()
    xa, ma, xb, mb = mrs(a, b)
    assert b.ctx.get_async_event() is None
    a.qp.post_send(SendWR(1, Opcode.RDMA_WRITE, (ma.sge(),), mb.addr, mb.rkey + 1))
    assert a.send_cq.poll()[0].status is WCStatus.REM_ACCESS_ERR
    event = b.ctx.get_async_event()
    assert event.event_type == "IBV_EVENT_QP_ACCESS_ERR" and event.qp_num == b.qp.qp_num
    assert b.qp.state is S.ERR and b.ctx.get_async_event() is None and a.ctx.get_async_event() is None
    a, b = pair()
    xa, ma, xb, mb = mrs(a, b)
    a.qp.post_send(SendWR(1, Opcode.ATOMIC_FETCH_AND_ADD, (ma.sge(0, 8),), mb.addr + 4, mb.rkey, compare_add=1))
    assert b.ctx.get_async_event().event_type == "IBV_EVENT_QP_REQ_ERR"


# --- IBTA C9-88: a zero-length RDMA READ or WRITE needs no valid R_Key ----------------------
@pytest.mark.parametrize("op", [Opcode.RDMA_WRITE, Opcode.RDMA_READ, Opcode.RDMA_WRITE_WITH_IMM])
def test_zero_length_rdma_needs_no_valid_rkey(op):
    a, b = pair()
    xa, ma, xb, mb = mrs(a, b)
    if op is Opcode.RDMA_WRITE_WITH_IMM:
        b.qp.post_recv(RecvWR(7, ()))
    a.qp.post_send(SendWR(1, op, (ma.sge(0, 0),), 12345, 0xDEAD, imm_data=1))
    wc = a.send_cq.poll()[0]
    assert wc.status is WCStatus.SUCCESS and wc.byte_len == 0
    assert a.qp.state is S.RTS and b.qp.state is S.RTS
    assert np.array_equal(xa, np.arange(64)) and not xb.any()
    if op is Opcode.RDMA_WRITE_WITH_IMM:   # the immediate still consumes a receive
        assert b.recv_cq.poll()[0].imm_data == 1


def test_zero_length_write_still_needs_the_qp_permission():
    a, b = pair(access=Access.REMOTE_READ)
    xa, ma, xb, mb = mrs(a, b)
    a.qp.post_send(SendWR(1, Opcode.RDMA_WRITE, (ma.sge(0, 0),), mb.addr, 0xDEAD))
    assert a.send_cq.poll()[0].status is WCStatus.REM_ACCESS_ERR


def test_one_byte_write_with_a_bad_rkey_still_fails():
    a, b = pair()
    xa, ma, xb, mb = mrs(a, b)
    a.qp.post_send(SendWR(1, Opcode.RDMA_WRITE, (ma.sge(0, 1),), mb.addr, 0xDEAD))
    assert a.send_cq.poll()[0].status is WCStatus.REM_ACCESS_ERR


# --- modify: attribute masks and all-or-nothing ------------------------------------------
def fresh():
    fabric = rdma.Fabric(100e9)
    return rdma.endpoint(fabric, "a"), rdma.endpoint(fabric, "b")


def test_reset_to_init_requires_access_and_init_to_init_keeps_it_unless_given():
    a, b = fresh()
    with pytest.raises(VerbsError, match="access"):
        a.qp.modify(S.INIT)                                  # IB_QP_ACCESS_FLAGS is required
    assert a.qp.state is S.RESET
    a.qp.modify(S.INIT, access=Access.REMOTE_WRITE)
    a.qp.modify(S.INIT)                                      # INIT -> INIT with an empty mask
    assert a.qp.access is Access.REMOTE_WRITE                # before: unchanged too, now by the mask rule
    a.qp.modify(S.INIT, access=Access.REMOTE_READ)           # the mask holds ACCESS_FLAGS: changed, explicitly
    assert a.qp.access is Access.REMOTE_READ


def test_a_refused_modify_changes_nothing():
    """Before: modify(INIT, access=5) raised TypeError but left access = 5."""
    a, b = fresh()
    with pytest.raises(TypeError, match="access"):
        a.qp.modify(S.INIT, access=5)
    assert a.qp.state is S.RESET and a.qp.access is Access.NONE
    a.qp.modify(S.INIT, access=Access.REMOTE_WRITE)
    a.qp.modify(S.RTR, dest_host="b", dest_qp_num=b.qp.qp_num)
    before = (a.qp.timeout, a.qp.retry_cnt, a.qp.rnr_retry, a.qp.access)
    with pytest.raises(ValueError, match="rnr_retry"):
        a.qp.modify(S.RTS, timeout=3, retry_cnt=1, rnr_retry=9, access=Access.REMOTE_READ)
    assert (a.qp.timeout, a.qp.retry_cnt, a.qp.rnr_retry, a.qp.access) == before
    assert a.qp.state is S.RTR


def test_rtr_with_an_unknown_peer_sets_no_remote():
    a, b = fresh()
    a.qp.modify(S.INIT, access=Access.NONE)
    with pytest.raises(TypeError, match="access"):
        a.qp.modify(S.RTR, dest_host="b", dest_qp_num=b.qp.qp_num, access=5)
    with pytest.raises(VerbsError, match="dest_host"):
        a.qp.modify(S.RTR, dest_host=["b"], dest_qp_num=b.qp.qp_num)
    assert a.qp.remote is None and a.qp.state is S.INIT


# --- timeout=0: wait forever ---------------------------------------------------------------
def test_timeout_zero_waits_forever_and_err_flushes():
    """Before: RETRY_EXC_ERR after (7 + 1) x 4.096 µs = 32.8 µs. After: no completion at all."""
    a, b = pair(timeout=0)
    xa, ma, xb, mb = mrs(a, b)
    b.qp.modify(S.RESET)                       # nobody answers
    a.qp.post_send(SendWR(1, Opcode.RDMA_WRITE, (ma.sge(0, 8),), mb.addr, mb.rkey))
    a.qp.post_send(SendWR(2, Opcode.RDMA_WRITE, (ma.sge(0, 8),), mb.addr, mb.rkey))
    assert a.send_cq.poll(10) == [] and a.qp.state is S.RTS
    a.qp.modify(S.ERR)
    flushed = a.send_cq.poll(10)
    assert [(w.wr_id, w.status) for w in flushed] == [(1, WCStatus.WR_FLUSH_ERR), (2, WCStatus.WR_FLUSH_ERR)]


def test_timeout_one_gives_up_after_the_ibta_time():
    # IBTA: local ACK timeout 4.096 µs x 2**1; retry_cnt 7 -> 8 attempts = 65.536 µs
    a, b = pair(timeout=1)
    xa, ma, xb, mb = mrs(a, b)
    b.qp.modify(S.RESET)
    t0 = a.ctx.clock_s + a.ctx.fabric.costs.post_s           # the request leaves after the post
    a.qp.post_send(SendWR(1, Opcode.RDMA_WRITE, (ma.sge(0, 8),), mb.addr, mb.rkey))
    wc = a.send_cq.poll()[0]
    assert wc.status is WCStatus.RETRY_EXC_ERR
    assert wc.time_s - t0 == pytest.approx(65.536e-6, rel=1e-9)


# --- integers only ---------------------------------------------------------------------------
@pytest.mark.parametrize("field,value", [("remote_addr", 1.5), ("remote_addr", np.float64(4096.0)),
                                         ("compare_add", 1.0), ("swap", 2.5), ("rkey", "0x10"),
                                         ("wr_id", 1.0)])
def test_non_integer_address_key_or_operand_is_a_type_error(field, value):
    a, b = pair()
    xa, ma, xb, mb = mrs(a, b)
    kwargs = dict(wr_id=1, opcode=Opcode.ATOMIC_FETCH_AND_ADD, sg_list=(ma.sge(0, 8),), remote_addr=mb.addr,
                  rkey=mb.rkey)
    kwargs[field] = value
    with pytest.raises(TypeError, match=field):
        SendWR(**kwargs)


@pytest.mark.parametrize("field,value", [("remote_addr", -1), ("remote_addr", 2**64), ("rkey", 2**32),
                                         ("compare_add", 2**64), ("swap", -2**63 - 1)])
def test_out_of_range_address_key_or_operand_is_a_value_error(field, value):
    kwargs = dict(wr_id=1, opcode=Opcode.ATOMIC_CMP_AND_SWP)
    kwargs[field] = value
    with pytest.raises(ValueError, match=field):
        SendWR(**kwargs)


def test_sge_fields_are_checked():
    with pytest.raises(TypeError, match="addr"):
        rdma.SGE(1.5, 8, 1)
    with pytest.raises(ValueError, match="length"):
        rdma.SGE(0, -1, 1)
    with pytest.raises(TypeError, match="opcode"):
        SendWR(1, "RDMA_WRITE")
