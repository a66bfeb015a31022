// JSONSupport module.
