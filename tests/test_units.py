import pytest

from cardforge.util.units import UnitError, parse_length


@pytest.mark.parametrize("text, points", [
    ("72pt", 72.0), ("1in", 72.0), ("25.4mm", 72.0), ("2.54cm", 72.0),
    ("63.5mm", 180.0), ("88.9 mm", 252.0), (".125in", 9.0), ("-3mm", -3 * 72 / 25.4),
])
def test_lengths_convert_exactly_to_points(text, points):
    assert parse_length(text) == pytest.approx(points, abs=1e-9)


@pytest.mark.parametrize("text", ["12", "12px", "mm", "1.2.3mm", "", "3 furlongs"])
def test_a_length_without_a_known_unit_is_an_error(text):
    with pytest.raises(UnitError):
        parse_length(text)
