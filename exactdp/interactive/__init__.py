"""Interactive mechanisms (Vadhan-Wang 2021, Vadhan-Zhang 2023), computed exactly."""
