// TestSupport module.
