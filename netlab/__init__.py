"""netlab: small, exact models of how AI datacenters move data.

Modules, one concept each (read a module's opening paragraph for the idea and
its references):

units        SI constants and formatters; decimal and binary prefixes apart
validate     input checks shared by every public function
specs        the hardware registry: every published figure with its source
links        serialization, propagation, alpha-beta, paths of hops, BDP
memory       bytes per parameter; what fits on a GPU
parallelism  bytes moved per training step by data, tensor, pipeline parallelism
plots        the book's matplotlib style and technology colours
widgets      live ipywidgets and their kernel-free static form
exercises    numeric answers checked with feedback on the classic slips
"""

__version__ = "0.1.0"
