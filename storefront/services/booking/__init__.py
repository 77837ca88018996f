"""Taking and keeping bookings: the cart, checkout, pricing and placing, availability, a
customer's changes, the booking as people see it, and the back office's booking screens."""
