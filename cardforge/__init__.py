"""cardforge: a print-and-play card generator and rules compiler.

The pipeline is a compiler's: ``load`` (YAML with source lines) -> ``validate`` (JSON Schema)
-> ``check`` (consistency) -> ``render`` (PDF) -> ``write`` (atomic). Each stage is a plain
function of the previous stage's output; every problem is a :class:`Diagnostic`.
"""

__version__ = "0.1.0"
