// MockServer module.
