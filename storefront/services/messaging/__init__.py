"""Messages that leave the site: mail and its templates, the notification outbox (WhatsApp,
mail), a booking's calendar file and signed link, the contact form."""
