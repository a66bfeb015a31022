// ExplorerApp module.
