from pathlib import Path

import pytest

from cardforge.util.yamlsource import YamlError, load_yaml


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cards.yaml"
    path.write_text(text)
    return path


def test_line_map_points_at_each_value(tmp_path):
    data, lines = load_yaml(write(tmp_path, "cards:\n  - name: A\n    text: hi\n  - name: B\n"))
    assert data == {"cards": [{"name": "A", "text": "hi"}, {"name": "B"}]}
    assert lines.locate(("cards", 0, "text")) == (3, 5)  # the key
    assert lines.positions[("cards", 0, "text")] == (3, 11)  # the value
    assert lines.line(("cards", 1, "name")) == 4
    assert lines.line(("cards", 1, "missing")) == 4  # falls back to the nearest ancestor


def test_every_duplicate_key_is_reported_with_its_line(tmp_path):
    path = write(tmp_path, "cards:\n  - name: A\n    name: B\n  - name: C\n    text: x\n    text: y\n")
    with pytest.raises(YamlError) as info:
        load_yaml(path)
    found = [(d.code, d.line) for d in info.value.diagnostics]
    assert found == [("yaml-duplicate-key", 3), ("yaml-duplicate-key", 6)]
    assert "first at line 2" in info.value.diagnostics[0].message


def test_syntax_error_has_a_line(tmp_path):
    with pytest.raises(YamlError) as info:
        load_yaml(write(tmp_path, "cards:\n  - name: [A\n  - name: B\n"))
    (d,) = info.value.diagnostics
    assert d.code == "yaml-syntax" and (d.line, d.column) == (2, 11)  # where the unclosed [ opens
    assert "not closed" in d.message


def test_arbitrary_tags_are_refused(tmp_path):
    with pytest.raises(YamlError):
        load_yaml(write(tmp_path, "x: !!python/object/apply:os.system ['true']\n"))


def test_a_file_that_is_not_utf8_is_a_diagnostic_with_its_line(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_bytes(b"cards:\n  - name: \"\xff\"\n")
    with pytest.raises(YamlError) as info:
        load_yaml(path)
    (d,) = info.value.diagnostics
    assert (d.code, d.line, d.column) == ("yaml-syntax", 2, 12)
