"""Reflex states: thin. They call services and turn service errors into SPEC's messages."""
