"""Test configuration: hypothesis runs a fixed sequence of examples (reproducible CI)."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "reproducible", derandomize=True, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("reproducible")
