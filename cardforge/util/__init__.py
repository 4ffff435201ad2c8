"""Utilities every stage uses: diagnostics (the one currency of errors) and how they
are printed, paths confined to a pack, units, near-miss suggestions, card-text markup,
text files and YAML read with their source lines, and worker processes."""
