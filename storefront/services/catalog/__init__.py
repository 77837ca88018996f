"""What the site offers: the public catalogue, its cache, the back office's service and banner management, showcase pages, SEO and catalogue addresses."""
