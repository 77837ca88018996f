"""Event-services storefront: public catalogue, cart and booking, back office."""
