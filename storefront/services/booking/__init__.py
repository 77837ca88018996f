"""Taking and keeping bookings: the cart, checkout, pricing and placing, availability, changes, links, views, and the back office's booking screens."""
