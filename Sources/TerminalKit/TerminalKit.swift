// TerminalKit module.
