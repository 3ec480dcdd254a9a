"""Chapter 10, across datacenters: what distance does to round trips, data in flight and collectives.

* :mod:`~netlab.longhaul.distance`: fibre latency, the bandwidth-delay product, window-limited
  rates, and an all-reduce split across two sites (closed forms);
* :mod:`~netlab.longhaul.experiments`: two sites in the packet simulator, joined by kilometres of fibre;
* :mod:`~netlab.longhaul.figures`: lab 10's figures and readouts.
"""

def __getattr__(name: str):     # the old flat module's names, for one release (netlab/_moved.py)
    from netlab import _moved
    return _moved.old_attribute(__name__, name)
