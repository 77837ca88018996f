"""Reflex states: thin. They call services and turn service errors into the spec's messages."""
