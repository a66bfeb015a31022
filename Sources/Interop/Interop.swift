// Interop module.
