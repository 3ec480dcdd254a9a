"""Transmission media: how fast light travels in fibre."""

from netlab.specs import Spec, register

register(
    Spec("fiber.smf.group_index", 1.468, "1",
         "Group index of a bend-insensitive single-mode fibre (an ITU-T G.657.B3 datasheet) at 1310 nm "
         "(1.469 at 1550 nm); light covers a km in 1.468 / c = 4.897 µs",
         "hnkoptic-g657-datasheet", "2024", "shipping", "P", published="1.468",
         note="netlab uses it for all single-mode fibre; a figure for standard G.652 fibre is not among "
              "its sources. The common rule of thumb of ~5 µs per km (index ~1.5) rounds this up."),
)
