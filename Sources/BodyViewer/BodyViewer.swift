// BodyViewer module.
