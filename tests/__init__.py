"""gameproto tests."""
