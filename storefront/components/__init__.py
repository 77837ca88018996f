"""Reusable UI. Components never touch the database."""
