"""Print the README's two set-up commands (the first two code blocks of its "Set-up"
section: build, then test), one a line, as written there.

CI runs exactly these (see .ci/run), so the README cannot drift from what is tested. Exits 1
when the section or its two commands are not found.
"""
import sys
from pathlib import Path

text = Path(sys.argv[1] if len(sys.argv) > 1 else "README.md").read_text(encoding="utf-8")
_, found, rest = text.partition("\n## Set-up\n")
section = rest.split("\n## ", 1)[0]
blocks = section.split("```")[1::2]  # the fenced blocks' contents
commands = [line.strip() for block in blocks[:2] for line in block.splitlines()[1:] if line.strip()]
if not found or len(commands) != 2:
    sys.exit(f"README.md: expected the two set-up commands under '## Set-up', found {commands}")
print("\n".join(commands))
