"""Shared test settings: hypothesis is derandomised so CI runs are reproducible."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "apples", derandomize=True, deadline=None, max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("apples")
