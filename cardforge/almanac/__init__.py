"""Reference pages: how the card almanac and the rulebook's card appendix print card fields."""
