// ExplorerRuntime module.
