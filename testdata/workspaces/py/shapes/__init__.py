"""Flat geometric figures."""
