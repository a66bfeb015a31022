// DispatcherCore module.
