"""Money at the door (issue 36): what a booking owes and what was paid on it (`ledger`), the
booking's numbered receipt and its PDF (`receipts`), the day's cash per member of staff (`cash`).
It reads bookings from the models and uses the basics and `messaging`; `booking` and
`operations` use it (tests/unit/test_architecture.py)."""
