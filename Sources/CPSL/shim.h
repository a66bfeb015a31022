// libpsl from the system (Debian: libpsl-dev): the Public Suffix List, as curl uses it to refuse a
// cookie `Domain` that is a public suffix (co.uk, github.io). The list itself is the system's
// (/usr/share/publicsuffix), updated with it, not a copy in this repository.
#include <libpsl.h>
