"""netlab.rdma: connection parameters that must match, the UD transport, inline data and CQ
overrun, each against what the verbs man pages, the IBTA rules they quote and the mlx5 provider say."""

import numpy as np
import pytest

from netlab import rdma
from netlab.rdma import Access, Opcode, QPState, RecvWR, SendWR, UDAddress, VerbsError, WCStatus

ALL = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC


def endpoints(fabric=None, a_kw=None, b_kw=None, qp_type="RC", **qp_kw):
    fabric = fabric or rdma.Fabric(100e9)
    out = []
    for host, kw in (("a", a_kw or {}), ("b", b_kw or {})):
        ctx = fabric.open_device(host, **kw)
        pd = ctx.alloc_pd()
        scq, rcq = ctx.create_cq(), ctx.create_cq()
        out.append((ctx, pd, scq, rcq, pd.create_qp(scq, rcq, qp_type=qp_type, **qp_kw)))
    return out


def manual_connect(qa, qb, *, a_rtr=None, b_rtr=None, a_rts=None, a_init=None):
    """Bring an RC pair up by hand, with per-side overrides of the exchanged values."""
    for qp, peer, init, rtr in ((qa, qb, a_init or {}, a_rtr or {}), (qb, qa, {}, b_rtr or {})):
        qp.modify(QPState.INIT, access=ALL, **init)
        qp.modify(QPState.RTR, dest_host=peer.context.host, dest_qp_num=peer.qp_num, **rtr)
    qa.modify(QPState.RTS, timeout=14, retry_cnt=7, rnr_retry=6, **(a_rts or {}))
    qb.modify(QPState.RTS, timeout=14, retry_cnt=7, rnr_retry=6)


def write(a, b, n):
    """Alice RDMA-WRITEs n bytes into Bob's region; returns the status and whether Bob's memory changed."""
    (_, pa, sa, _, qa), (_, pb, _, _, _) = a, b
    src, dst = np.full(n, 7, np.uint8), np.zeros(n, np.uint8)
    ms, md = pa.reg_mr(src), pb.reg_mr(dst, Access.LOCAL_WRITE | Access.REMOTE_WRITE)
    qa.post_send(SendWR(1, Opcode.RDMA_WRITE, (ms.sge(),), md.addr, md.rkey))
    return sa.poll()[0].status, bool(dst.any())


# --- values the device cannot hold: refused by modify, nothing changes ------------------------------
@pytest.mark.parametrize("step,attrs,match", [
    (QPState.INIT, dict(access=Access.NONE, pkey_index=1), "pkey_index 1 is beyond"),
    (QPState.RTR, dict(path_mtu=9000), "InfiniBand MTU"),
    (QPState.RTR, dict(path_mtu=1500), "InfiniBand MTU"),
    (QPState.RTR, dict(sgid_index=2), "sgid_index 2 is beyond"),
])
def test_modify_refuses_values_beyond_the_port(step, attrs, match):
    a, b = endpoints()
    qa = a[4]
    if step is QPState.RTR:
        qa.modify(QPState.INIT, access=Access.NONE)
        attrs = dict(dest_host="b", dest_qp_num=b[4].qp_num, **attrs)
    before = qa.state
    with pytest.raises(VerbsError, match=match):
        qa.modify(step, **attrs)
    assert qa.state is before


def test_matching_parameters_connect():
    a, b = endpoints()
    manual_connect(a[4], b[4], a_rtr=dict(path_mtu=1024, rq_psn=77), b_rtr=dict(path_mtu=1024, rq_psn=5),
                   a_rts=dict(sq_psn=5))
    assert write(a, b, 8192) == (WCStatus.SUCCESS, True)


# --- mismatches pass every modify and fail at the first request, with memory untouched ---------------
def test_psn_mismatch_retries_out():
    a, b = endpoints()
    manual_connect(a[4], b[4], b_rtr=dict(rq_psn=1000), a_rts=dict(sq_psn=0))
    assert write(a, b, 8) == (WCStatus.RETRY_EXC_ERR, False)
    assert b[0].rx_drops == {"out_of_sequence": 8}          # retry_cnt 7: eight attempts
    assert a[4].state is QPState.ERR and b[4].state is QPState.RTS


def test_pkey_mismatch_retries_out_but_membership_bit_does_not_matter():
    a, b = endpoints(a_kw=dict(pkeys=(0xFFFF, 0x8001)), b_kw=dict(pkeys=(0x8002, 0x0001)))
    manual_connect(a[4], b[4], a_init=dict(pkey_index=1))    # 0x8001 against b's 0x8002
    assert write(a, b, 8) == (WCStatus.RETRY_EXC_ERR, False)
    assert b[0].rx_drops == {"pkey_violation": 8}
    a2, b2 = endpoints(a_kw=dict(pkeys=(0x8001,)), b_kw=dict(pkeys=(0x0001,)))
    manual_connect(a2[4], b2[4])                              # same partition, full vs limited member
    assert write(a2, b2, 8) == (WCStatus.SUCCESS, True)


def test_roce_v1_against_v2_gid_retries_out():
    a, b = endpoints()
    manual_connect(a[4], b[4], a_rtr=dict(sgid_index=0))      # a speaks RoCE v1, b v2 (the default)
    assert write(a, b, 8) == (WCStatus.RETRY_EXC_ERR, False)
    assert b[0].rx_drops == {"gid_type_mismatch": 8}


def test_too_large_path_mtu_fails_only_for_messages_longer_than_the_smaller_mtu():
    """A RoCE port on a 1500-byte Ethernet MTU carries 1024-byte RDMA packets; a requester set to
    4096 works for every message of up to 1024 bytes and fails on the first longer one."""
    a, b = endpoints(b_kw=dict(active_mtu=1024))
    manual_connect(a[4], b[4], a_rtr=dict(path_mtu=4096))
    assert write(a, b, 1024) == (WCStatus.SUCCESS, True)
    a, b = endpoints(b_kw=dict(active_mtu=1024))
    manual_connect(a[4], b[4], a_rtr=dict(path_mtu=4096))
    assert write(a, b, 1025) == (WCStatus.RETRY_EXC_ERR, False)
    assert b[0].rx_drops == {"packet_too_long": 8}
    a, b = endpoints(b_kw=dict(active_mtu=1024))
    rdma.connect(a[4], b[4], access=ALL)                      # a correct exchange takes the smaller MTU
    assert a[4].path_mtu == 1024 and write(a, b, 1 << 20) == (WCStatus.SUCCESS, True)


def test_reset_restores_the_matching_defaults():
    a, b = endpoints()
    manual_connect(a[4], b[4], a_rts=dict(sq_psn=9))
    for qp in (a[4], b[4]):
        qp.modify(QPState.RESET)
    assert (a[4].sq_psn, a[4].path_mtu, a[4].sgid_index) == (0, 4096, 1)
    rdma.connect(a[4], b[4], access=ALL)
    assert write(a, b, 8) == (WCStatus.SUCCESS, True)


# --- unreliable datagram -----------------------------------------------------------------------------
def ud_pair(**kw):
    a, b = endpoints(qp_type="UD", **kw)
    for ep in (a, b):
        ep[4].modify(QPState.INIT, qkey=0x1111)
        ep[4].modify(QPState.RTR)
        ep[4].modify(QPState.RTS)
    return a, b


def ud_send(a, b, n, qkey=0x1111, recv_bytes=None, post_recv=True):
    (_, pa, sa, _, qa), (_, pb, _, rb, qb) = a, b
    src = np.arange(n, dtype=np.uint8) if n else np.zeros(1, np.uint8)
    ms = pa.reg_mr(src)
    dst = np.zeros(recv_bytes if recv_bytes is not None else n + 40, np.uint8)
    md = pb.reg_mr(dst, Access.LOCAL_WRITE)
    if post_recv:
        qb.post_recv(RecvWR(9, (md.sge(),)))
    qa.post_send(SendWR(1, Opcode.SEND, (ms.sge(0, n),), ud=UDAddress("b", qb.qp_num, qkey)))
    return sa.poll()[0], (rb.poll()[0] if len(rb) else None), dst


def test_ud_datagram_lands_after_the_40_byte_grh():
    a, b = ud_pair()
    swc, rwc, dst = ud_send(a, b, 100)
    assert swc.status is WCStatus.SUCCESS
    assert rwc.status is WCStatus.SUCCESS and rwc.byte_len == 140 and rwc.src_qp == a[4].qp_num
    assert dst[40:].tolist() == list(range(100))


def test_ud_losses_are_silent_for_the_sender():
    """No acknowledgement in UD: a wrong Q_Key or no posted receive drops the datagram at the
    receiver, and the sender still completes with success."""
    for kw, reason in ((dict(qkey=0x2222), "qkey_violation"), (dict(post_recv=False), "no_receive_posted")):
        a, b = ud_pair()
        swc, rwc, dst = ud_send(a, b, 64, **kw)
        assert swc.status is WCStatus.SUCCESS and rwc is None and not dst.any()
        assert b[0].rx_drops == {reason: 1}


def test_ud_message_is_at_most_one_mtu_and_buffers_need_room_for_the_grh():
    a, b = ud_pair(a_kw=dict(active_mtu=1024))
    swc, rwc, _ = ud_send(a, b, 1025)
    assert swc.status is WCStatus.LOC_LEN_ERR and rwc is None
    a, b = ud_pair()
    swc, rwc, _ = ud_send(a, b, 100, recv_bytes=100)          # no room for the 40-byte GRH
    assert swc.status is WCStatus.SUCCESS and rwc.status is WCStatus.LOC_LEN_ERR


def test_ud_has_no_rdma_and_rc_has_no_ud_address():
    a, b = ud_pair()
    buf = np.zeros(8, np.uint8)
    mr = a[1].reg_mr(buf, Access.LOCAL_WRITE)
    with pytest.raises(VerbsError, match="only SEND"):
        a[4].post_send(SendWR(1, Opcode.RDMA_WRITE, (mr.sge(),), 0, 0, ud=UDAddress("b", b[4].qp_num, 1)))
    with pytest.raises(VerbsError, match="needs"):             # UD INIT needs a Q_Key
        endpoints(qp_type="UD")[0][4].modify(QPState.INIT)
    x, y = endpoints()
    rdma.connect(x[4], y[4], access=ALL)
    with pytest.raises(VerbsError, match="UD QPs"):
        x[4].post_send(SendWR(1, Opcode.SEND, ud=UDAddress("b", y[4].qp_num, 1)))


# --- inline data --------------------------------------------------------------------------------------
def test_inline_ignores_the_lkey_and_is_limited_to_max_inline_data():
    """ibv_post_send(3): with IBV_SEND_INLINE the lkey is not checked; the mlx5 provider refuses
    more than max_inline_data bytes with ENOMEM, before anything is sent."""
    a, b = endpoints(max_inline_data=64)
    rdma.connect(a[4], b[4], access=ALL)
    src, dst = np.full(64, 5, np.uint8), np.zeros(65, np.uint8)
    ms, md = a[1].reg_mr(src), b[1].reg_mr(dst, Access.LOCAL_WRITE | Access.REMOTE_WRITE)
    wrong = rdma.SGE(ms.addr, 64, ms.lkey ^ 0xFF)
    a[4].post_send(SendWR(1, Opcode.RDMA_WRITE, (wrong,), md.addr, md.rkey, inline=True))
    assert a[2].poll()[0].status is WCStatus.SUCCESS and dst[:64].tolist() == [5] * 64
    big = np.zeros(65, np.uint8)
    mb = a[1].reg_mr(big)
    clock = a[0].clock_s
    with pytest.raises(VerbsError, match="ENOMEM"):
        a[4].post_send(SendWR(2, Opcode.RDMA_WRITE, (mb.sge(),), md.addr, md.rkey, inline=True))
    with pytest.raises(VerbsError, match="only for SEND and RDMA WRITE"):
        a[4].post_send(SendWR(3, Opcode.RDMA_READ, (ms.sge(0, 8),), md.addr, md.rkey, inline=True))
    assert a[0].clock_s == clock and a[4].state is QPState.RTS


# --- completion-queue overrun ------------------------------------------------------------------------
def test_cq_overrun_errors_the_cq_and_every_qp_on_it():
    """RDMA Aware manual, Events; IBTA C9-218/C11-37: one completion more than the CQ holds is an
    overrun: IBV_EVENT_CQ_ERR, and every QP completing into the CQ gets IBV_EVENT_QP_FATAL and
    moves to ERR."""
    fabric = rdma.Fabric(100e9)
    a, b = rdma.endpoint(fabric, "a"), rdma.endpoint(fabric, "b")
    small = a.ctx.create_cq(cqe=4)
    qp = a.pd.create_qp(small, a.recv_cq)
    peer = b.pd.create_qp(b.send_cq, b.recv_cq)
    rdma.connect(qp, peer, access=ALL)
    src, dst = np.zeros(8, np.uint8), np.zeros(8, np.uint8)
    ms, md = a.pd.reg_mr(src), b.pd.reg_mr(dst, Access.LOCAL_WRITE | Access.REMOTE_WRITE)
    for i in range(4):                                       # four completions fit, unpolled
        qp.post_send(SendWR(i, Opcode.RDMA_WRITE, (ms.sge(),), md.addr, md.rkey))
    assert not small.errored and qp.state is QPState.RTS
    qp.post_send(SendWR(4, Opcode.RDMA_WRITE, (ms.sge(),), md.addr, md.rkey))
    assert small.errored and qp.state is QPState.ERR and len(small) == 4
    events = [(e.event_type, e.qp_num, e.cq_num) for e in a.ctx.async_events]
    assert events == [("IBV_EVENT_CQ_ERR", None, small.cq_num), ("IBV_EVENT_QP_FATAL", qp.qp_num, None)]
    assert a.qp.state is QPState.RESET                       # a QP on other CQs is untouched


# --- shared receive queues ---------------------------------------------------------------------------
def srq_setup(n_senders=3, max_wr=4):
    fabric = rdma.Fabric(100e9)
    server = rdma.endpoint(fabric, "server")
    srq = server.pd.create_srq(max_wr=max_wr)
    pairs = []
    for i in range(n_senders):
        client = rdma.endpoint(fabric, f"c{i}")
        qp = server.pd.create_qp(server.send_cq, server.recv_cq, srq=srq)
        rdma.connect(client.qp, qp, access=ALL)
        pairs.append((client, qp))
    return server, srq, pairs


def send_from(client, value):
    buf = np.full(8, value, np.uint8)
    mr = client.pd.reg_mr(buf)
    client.qp.post_send(SendWR(value, Opcode.SEND, (mr.sge(),)))
    return client.send_cq.poll()[0].status


def test_srq_receives_serve_every_qp_in_posting_order():
    server, srq, pairs = srq_setup()
    slots = [np.zeros(8, np.uint8) for _ in range(4)]
    for i, s in enumerate(slots):
        srq.post_recv(RecvWR(i, (server.pd.reg_mr(s, Access.LOCAL_WRITE).sge(),)))
    with pytest.raises(VerbsError, match="ENOMEM"):            # max_wr 4
        srq.post_recv(RecvWR(9, ()))
    with pytest.raises(VerbsError, match="SRQ"):                # no receive queue of its own
        pairs[0][1].post_recv(RecvWR(9, ()))
    for (client, _), value in zip(pairs, (11, 22, 33)):
        assert send_from(client, value) is WCStatus.SUCCESS
    wcs = server.recv_cq.poll(3)
    assert [w.wr_id for w in wcs] == [0, 1, 2]                  # first posted, first used, whoever sends
    assert [w.qp_num for w in wcs] == [qp.qp_num for _, qp in pairs]
    assert [s[0] for s in slots] == [11, 22, 33, 0] and len(srq) == 1


def test_srq_limit_event_fires_once_and_a_failed_qp_does_not_flush_the_pool():
    server, srq, pairs = srq_setup(max_wr=8)
    for i in range(4):
        srq.post_recv(RecvWR(i, (server.pd.reg_mr(np.zeros(8, np.uint8), Access.LOCAL_WRITE).sge(),)))
    srq.arm(3)
    send_from(pairs[0][0], 1)                                   # 3 left: not below 3
    assert server.ctx.async_events == []
    send_from(pairs[1][0], 2)                                   # 2 left: below the limit
    send_from(pairs[2][0], 3)                                   # 1 left: already reported
    assert [e.event_type for e in server.ctx.async_events] == ["IBV_EVENT_SRQ_LIMIT_REACHED"]
    pairs[0][1].modify(QPState.ERR)                             # one QP fails: the pool keeps its receive
    assert len(srq) == 1
    assert send_from(pairs[1][0], 4) is WCStatus.SUCCESS and len(srq) == 0
