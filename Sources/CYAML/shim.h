// libyaml from the system (Debian: libyaml-dev), the YAML scanner and parser under the catalog
// reader. Used directly rather than through Yams, whose Swift layer pulls in all of Foundation
// (and with it 34 MB of ICU data) for features the catalog reader does not use.
#include <yaml.h>
