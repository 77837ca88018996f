"""The demo catalogue: `load_demo(session=...)` inserts whatever is missing, nothing else."""

from storefront.seed.loader import SeedReport, load_demo

__all__ = ["SeedReport", "load_demo"]
