"""What the site offers: the public catalogue, the back office's service and banner management,
the showcase pages, SEO and the answers to catalogue addresses."""
