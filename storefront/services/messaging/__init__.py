"""Messages that leave the site: mail, its templates, the notification outbox (WhatsApp, mail), the contact form."""
