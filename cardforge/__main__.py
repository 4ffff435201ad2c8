from cardforge.cli import app

app()
