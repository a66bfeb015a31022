#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H
// Wide-character API must be enabled before the header: SwiftPM drops pkg-config -D flags.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <limits.h>
#include <stdio.h>
#include <wchar.h>
#include <sys/ioctl.h>
#include <ncursesw/curses.h>

// Globals and macros that do not import into Swift 6 as concurrency-safe.
static inline WINDOW *nc_stdscr(void) { return stdscr; }
static inline WINDOW *nc_curscr(void) { return curscr; }
static inline int nc_lines(void) { return LINES; }
static inline int nc_cols(void) { return COLS; }
static inline int nc_colors(void) { return COLORS; }
static inline int nc_color_pairs(void) { return COLOR_PAIRS; }
static inline int nc_wcwidth(wchar_t c) { return wcwidth(c); }
static inline FILE *nc_stdin_file(void) { return stdin; }
static inline FILE *nc_stdout_file(void) { return stdout; }

// Attribute macros.
static inline attr_t nc_attr_normal(void) { return A_NORMAL; }
static inline attr_t nc_attr_bold(void) { return A_BOLD; }
static inline attr_t nc_attr_dim(void) { return A_DIM; }
static inline attr_t nc_attr_italic(void) { return A_ITALIC; }
static inline attr_t nc_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t nc_attr_reverse(void) { return A_REVERSE; }

// Function key codes: KEY_F(n) is a macro.
static inline int nc_key_f(int n) { return KEY_F(n); }

// The key code curses assigned to a terminfo key capability such as "kLFT5" (Ctrl-Left), or 0.
// key_defined() takes the escape sequence, so look the capability's string up first.
static inline int nc_key_code_for_capability(const char *name) {
    char *sequence = tigetstr((NCURSES_CONST char *)name);
    if (sequence == NULL || sequence == (char *)-1) return 0;
    return key_defined(sequence);
}

// A terminfo string capability ("rmcup", "cnorm"), or NULL when the terminal has none.
static inline const char *nc_terminfo_string(const char *name) {
    char *sequence = tigetstr((NCURSES_CONST char *)name);
    if (sequence == NULL || sequence == (char *)-1) return NULL;
    return sequence;
}

// Colours the terminal has (terminfo `colors`; negative when it has none).
static inline int nc_terminal_colors(void) { return tigetnum((NCURSES_CONST char *)"colors"); }

// Whether the terminal can move its cursor anywhere (terminfo `cup`): frames are drawn with it.
static inline bool nc_can_address_cursor(void) {
    char *sequence = tigetstr((NCURSES_CONST char *)"cup");
    return sequence != NULL && sequence != (char *)-1;
}

// One cell: text is a NUL-terminated spacing character followed by non-spacing ones.
static inline int nc_setcchar(cchar_t *cell, const wchar_t *text, attr_t attrs, int pair) {
    if (pair <= SHRT_MAX) return setcchar(cell, text, attrs, (short)pair, NULL);
    return setcchar(cell, text, attrs, 0, &pair);
}

// The tty's real size (rows, columns), 0 on success; ioctl is variadic and does not import.
static inline int nc_tty_size(int fd, int *rows, int *cols) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *cols = size.ws_col;
    return 0;
}

#endif
