"""Business rules in plain Python. Nothing here imports reflex, state or pages."""
