"""The rules compiler: each game's rules source (Markdown with jinja2) compiled into the
accordion rules sheet (rules.pdf) and the full rulebook (rulebook.pdf)."""
