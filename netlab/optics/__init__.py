"""Chapter 9, co-packaged optics and power: where a port's watts go, and what a fabric draws.

* :mod:`~netlab.optics.cpo`: a switch port's energy per bit through SerDes, DSP and laser, for
  DSP pluggables, linear pluggables (LPO) and co-packaged optics (CPO); the electrical loss budget;
* :mod:`~netlab.optics.power`: a fabric's watts, its share of the facility, and the GPUs a
  power budget feeds;
* :mod:`~netlab.optics.costs`: what a fabric's switches and optics cost, the price model chapters 5
  and 11 share;
* :mod:`~netlab.optics.reliability`: lasers, failure rates, and how often a large fabric loses a link;
* :mod:`~netlab.optics.figures`: lab 9's figures and readouts.
"""

def __getattr__(name: str):     # the old flat module's names, for one release (netlab/_moved.py)
    from netlab import _moved
    return _moved.old_attribute(__name__, name)
