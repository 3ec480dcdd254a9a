"""The book's calculators and its "Try it" console: the Python that runs both at build time and in the page.

Each calculator is a handful of typed inputs and one function that calls netlab's own models and
returns a readout line, the way a lab explorer's readout reads. The same file runs twice:

- at build time, in CPython, where ``book/_ext/netlab_calc.py`` computes each calculator's readout
  for its default inputs and writes it into the page (what a reader sees from a file, with
  JavaScript off, or before the first click);
- in the reader's browser, in Pyodide (CPython compiled to WebAssembly) in a Web Worker, where
  ``static/netlab-pyodide-worker.js`` (beside this file) imports it next to netlab's own wheel and calls :func:`run_json`
  with the numbers the reader typed.

It imports nothing but netlab's numpy-free core and the standard library (``tests/test_numpy_free.py``
keeps that core numpy-free). Inputs are typed text; a value netlab refuses comes back with netlab's
own message ("world_size must be an integer >= 1 ...").
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import sys
import time
import traceback
from dataclasses import dataclass
from typing import Callable, Mapping

from netlab import cluster, links, units
from netlab.collectives import alpha_beta
from netlab.fabric import clos
from netlab.optics import cpo, power


@dataclass(frozen=True)
class Field:
    """One input: ``kind`` is "number" (a float, ``1e9`` allowed), "integer" or "choice"."""

    name: str
    label: str
    default: str
    kind: str = "number"
    choices: tuple[tuple[str, str], ...] = ()     # (value, label) for a choice

    def parse(self, text: object) -> float | int | str:
        raw = str(text).strip()
        if self.kind == "choice":
            if raw not in {v for v, _ in self.choices}:
                raise ValueError(f"{self.label}: choose one of {', '.join(v for v, _ in self.choices)}, got {raw!r}")
            return raw
        try:
            value = float(raw.replace(",", "").replace("_", ""))     # 32,768 and 32_768 read as 32768
        except ValueError:
            raise ValueError(f"{self.label}: type a number, got {raw!r}") from None
        if self.kind == "integer":
            if not value.is_integer():
                raise ValueError(f"{self.label}: type a whole number, got {raw!r}")
            return int(value)
        return value


@dataclass(frozen=True)
class Calculator:
    name: str
    title: str
    fields: tuple[Field, ...]
    compute: Callable[..., str]
    note: str = ""

    def defaults(self) -> dict[str, str]:
        return {f.name: f.default for f in self.fields}

    def __call__(self, values: Mapping[str, object]) -> str:
        missing = [f.label for f in self.fields if f.name not in values]
        if missing:
            raise ValueError(f"missing inputs: {', '.join(missing)}")
        return self.compute(**{f.name: f.parse(values[f.name]) for f in self.fields})


CALCULATORS: dict[str, Calculator] = {}


def _register(name: str, title: str, fields: tuple[Field, ...], note: str = ""):
    def wrap(fn: Callable[..., str]) -> Callable[..., str]:
        CALCULATORS[name] = Calculator(name, title, fields, fn, note)
        return fn
    return wrap


# --- chapter 2: links -------------------------------------------------------------------------

@_register("link-delay", "One message over one link: serialization, propagation, bandwidth-delay product", (
    Field("message_bytes", "Message (bytes)", "4096"),
    Field("rate_gbps", "Link rate (Gb/s, one way)", "400"),
    Field("distance_m", "Fibre length (m)", "100"),
))
def link_delay(message_bytes: float, rate_gbps: float, distance_m: float) -> str:
    d = links.link_delay(message_bytes, rate_gbps * 1e9, distance_m)
    bdp = links.bandwidth_delay_product(rate_gbps * 1e9, d.rtt_s)
    return (f"serialization {units.format_time(d.serialization_s)}, propagation {units.format_time(d.propagation_s)} "
            f"(equal at {d.crossover_m:,.3g} m); round trip {units.format_time(d.rtt_s)}; "
            f"bytes in flight to fill it (BDP) {units.format_bytes(bdp)}")


# --- chapter 5: fabrics -----------------------------------------------------------------------

@_register("fat-tree", "A fat-tree for your GPU count: tiers, switches, transceivers, bisection", (
    Field("gpus", "GPUs (one NIC port each)", "32768", "integer"),
    Field("radix", "Switch radix (ports)", "64", "integer"),
    Field("rate_gbps", "Port rate (Gb/s)", "800"),
    Field("oversubscription", "Oversubscription (x:1)", "1"),
))
def fat_tree(gpus: int, radix: int, rate_gbps: float, oversubscription: float) -> str:
    f = clos.clos(gpus, radix, rate_gbps * 1e9, oversubscription)
    tiers = " + ".join(f"{n:,}" for n in f.switches_per_tier)
    return (f"{f.n_tiers} tiers, {f.n_switches:,} switches ({tiers}, hosts up), {f.n_links:,} links, "
            f"{f.n_transceivers:,} transceivers; bisection {units.format_rate(f.bisection_bandwidth_bps)} "
            f"({f.bisection_bandwidth_bps / f.full_bisection_bps:.0%} of full); these switches reach "
            f"{f.max_hosts:,} hosts in {f.n_tiers} tiers")


# --- chapter 6: collectives -------------------------------------------------------------------

@_register("nccl-tests", "What should my nccl-tests show? all_reduce_perf's busbw for your cluster", (
    Field("gpus", "GPUs (ranks)", "8", "integer"),
    Field("nic_gbps", "NIC or link speed (Gb/s, one way)", "400"),
    Field("message_mb", "Message size (MB)", "1024"),
    Field("alpha_us", "Latency per step, alpha (µs)", "5"),
), note="Ring all-reduce in the alpha-beta model, as nccl-tests reports it: algbw = size / time, "
        "busbw = algbw x 2(n-1)/n. Measured busbw is 92-98 % of a NIC's rate at large sizes (this chapter).")
def nccl_tests(gpus: int, nic_gbps: float, message_mb: float, alpha_us: float) -> str:
    r = alpha_beta.ring_all_reduce_time(message_mb * 1e6, gpus, alpha_us * 1e-6, nic_gbps * 1e9)
    factor = alpha_beta.busbw_factor("all_reduce", gpus)
    return (f"time {units.format_time(r.time_s)} ({units.format_time(r.latency_s)} latency + "
            f"{units.format_time(r.transfer_s)} transfer, {r.regime}); algbw {units.format_byte_rate(r.algbw_bps)}, "
            f"busbw {units.format_byte_rate(r.busbw_bps)} (factor {factor:.4g}); the link's one-way rate is "
            f"{units.format_byte_rate(nic_gbps * 1e9)}")


# --- chapter 9: optics and power --------------------------------------------------------------

OPTICS = tuple((o, cpo.option_name(o)) for o in cpo.OPTIONS)


@_register("fabric-power", "Watts of optics: one port, and the whole fabric for your GPU count", (
    Field("option", "Switch optics", "dsp_pluggable", "choice", OPTICS),
    Field("gpus", "GPUs (one NIC port each)", "32768", "integer"),
    Field("radix", "Switch radix (ports)", "64", "integer"),
    Field("rate_gbps", "Port rate (Gb/s)", "800"),
))
def fabric_power(option: str, gpus: int, radix: int, rate_gbps: float) -> str:
    port = cpo.port_power(option, rate_gbps * 1e9)
    p = power.fabric_power(clos.clos(gpus, radix, rate_gbps * 1e9), option)
    return (f"one {cpo.option_name(option)} port {units.format_power(port.total_w)} (module "
            f"{units.format_power(port.module_w)}, channel {port.loss_db:g} dB); fabric of {p.n_switches:,} switches "
            f"{units.format_power(p.total_w)} ({units.format_power(p.per_host_w)} per GPU; optics at the switches "
            f"{units.format_power(p.switch_ports_w)}, at the NICs {units.format_power(p.nic_ports_w)})")


# --- chapter 11: the capstone ---------------------------------------------------------------

# the capstone's workload (lab 11): a 70B model, 4096-token sequences, 1152 sequences per step, 15T tokens
CAPSTONE_WORKLOAD = cluster.Workload(n_params=70e9, n_layers=80, hidden=8192, seq_len=4096,
                                     tokens_per_step=1152 * 4096, n_tokens=15e12)
DOMAINS = tuple((d, cluster.DOMAIN_NAMES[d]) for d in ("dgx-h100", "gb200-nvl72"))
# ECMP's collision model needs numpy (an FFT), which the page does not have: the lab runs it
FABRICS = tuple((k, v[2]) for k, v in cluster.FABRICS.items() if v[1] != "ecmp")


@_register("capstone", "The capstone's 70B training run on your design: step time, days, power, cost", (
    Field("domain", "Scale-up domain", "dgx-h100", "choice", DOMAINS),
    Field("fabric", "Scale-out fabric", "ib-adaptive", "choice", FABRICS),
    Field("option", "Switch optics", "dsp_pluggable", "choice", OPTICS),
    Field("oversubscription", "Oversubscription (x:1)", "1"),
    Field("gpus", "GPUs (a multiple of 32 and of the domain)", "4608", "integer"),
), note="Tensor parallel 8, pipeline 4, as in lab 11; the ECMP fabric needs numpy and runs in the lab.")
def capstone(domain: str, fabric: str, option: str, oversubscription: float, gpus: int) -> str:
    e = cluster.evaluate(cluster.capstone_design(domain, fabric, option, oversubscription, n_gpus=gpus),
                         CAPSTONE_WORKLOAD)
    return (f"step {units.format_time(e.step_s)} (compute {units.format_time(e.compute_s)}, data-parallel "
            f"all-reduce {units.format_time(e.dp_s)} in all, of which {units.format_time(e.dp_exposed_s)} exposed, "
            f"{e.overlap:.0%} hidden behind the backward pass), efficiency {e.efficiency:.0%}; "
            f"{e.training_days:.1f} days; "
            f"facility {units.format_power(e.site.facility_w)}; capex ${e.capex_low_usd / 1e6:,.0f}-"
            f"{e.capex_high_usd / 1e6:,.0f} M" + ("" if e.fits else "; the model DOES NOT FIT in GPU memory"))


# --- the page's entry points ------------------------------------------------------------------

def run(name: str, values: Mapping[str, object]) -> str:
    """The readout of calculator ``name`` for ``values`` (input name -> typed text)."""
    if name not in CALCULATORS:
        raise ValueError(f"no calculator named {name!r}; known: {', '.join(CALCULATORS)}")
    return CALCULATORS[name](values)


def run_json(request: str) -> str:
    """What the page's worker calls: ``{"name", "values"}`` in, ``{"readout"}`` or ``{"error"}`` out (JSON)."""
    args = json.loads(request)
    start = time.perf_counter()
    try:
        readout = run(args["name"], args["values"])
    except (ValueError, TypeError, KeyError, ZeroDivisionError, OverflowError) as exc:
        return json.dumps({"error": f"{exc}"})
    return json.dumps({"readout": readout, "seconds": time.perf_counter() - start})


_NAMESPACES: dict[str, dict] = {}


def console(code: str, key: str = "") -> str:
    """Run ``code`` as a notebook cell would (its last expression's value printed); its output as text.

    Each ``key`` (a console on a page) keeps its own variables between runs; ``netlab`` is imported.
    A traceback shows the reader's code only.
    """
    namespace = _NAMESPACES.setdefault(key, {"__name__": "__console__"})
    if "netlab" not in namespace:
        exec("import netlab", namespace)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            tree = ast.parse(code, "<console>")
            last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            assert last is None or isinstance(last, ast.Expr)
            exec(compile(tree, "<console>", "exec"), namespace)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<console>", "eval"), namespace)
                if value is not None:
                    print(repr(value))
        except BaseException as exc:   # noqa: BLE001 - the reader's code: every error is output
            tb = exc.__traceback__
            while tb is not None and tb.tb_frame.f_code.co_filename != "<console>":
                tb = tb.tb_next
            out.write("".join(traceback.format_exception(type(exc), exc, tb)))
            if isinstance(exc, ModuleNotFoundError) and sys.platform == "emscripten":
                out.write("In the page, Python has its standard library and netlab only (no numpy, matplotlib or "
                          "ipywidgets): the functions that need them, and every figure, run in the labs.\n")
    return out.getvalue()
