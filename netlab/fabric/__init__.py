"""Chapter 5, fabrics at scale: sizing a Clos fabric, wiring it in rails, and how traffic spreads over its paths.

* :mod:`~netlab.fabric.clos`: fat-tree and leaf-spine sizing from a switch's radix;
* :mod:`~netlab.fabric.rails`: a GPU cluster's fabric wired as a fat tree, rail-optimized or
  rail-only: counts, cost, power, and where all-reduce and all-to-all bytes go;
* :mod:`~netlab.fabric.ecmp`: ECMP's hash collisions as balls into bins, and spraying;
* :mod:`~netlab.fabric.flowlevel`: max-min fair flow rates on fabrics of 100,000 hosts;
* :mod:`~netlab.fabric.experiments`: the chapter's packet-simulator runs of ECMP, spraying and
  adaptive routing (the policies themselves are in :mod:`netlab.sim.loadbalance`);
* :mod:`~netlab.fabric.figures`: lab 5's figures and readouts.
"""

def __getattr__(name: str):     # the old flat module's names, for one release (netlab/_moved.py)
    from netlab import _moved
    return _moved.old_attribute(__name__, name)
