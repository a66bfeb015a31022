// ExplorerApp module: state, reducer and views of the terminal app.
