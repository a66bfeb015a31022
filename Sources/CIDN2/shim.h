// libidn2 from the system (Debian: libidn2-dev; libpsl links it already): internationalized host
// names turned into their ASCII form (punycode, IDNA2008 with TR46), as curl built with it does.
#include <idn2.h>
