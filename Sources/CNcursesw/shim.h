#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H
// Wide-character API must be enabled before the header: SwiftPM drops pkg-config -D flags.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// Globals and macros that do not import into Swift 6 as concurrency-safe.
static inline WINDOW *nc_stdscr(void) { return stdscr; }
static inline int nc_lines(void) { return LINES; }
static inline int nc_cols(void) { return COLS; }
static inline int nc_colors(void) { return COLORS; }
static inline int nc_wcwidth(wchar_t c) { return wcwidth(c); }

#endif
