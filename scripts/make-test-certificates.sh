#!/usr/bin/env bash
# Regenerates the test PKI committed under Sources/TestSupport/Certificates.
#
# Everything here is for tests only: the private keys are public on purpose.
# Keys are EC P-256 (accepted by BoringSSL/NIOSSL); certificates are valid ~100 years so
# the committed files never expire under CI, except `expired.pem`, which is meant to.
# Pins are computed by openssl itself so tests can check our own SPKI hashing against
# an independent implementation.
#
# Usage: scripts/make-test-certificates.sh [output-directory]
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/Sources/TestSupport/Certificates}"
days=36500
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

newkey() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

# request_config SUBJECT: the [req] part every certificate request shares.
request_config() {
  printf '[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = %s\n' "$1"
}

# leaf_section USAGE SAN: the [leaf] extensions of an end-entity certificate.
leaf_section() {
  printf '[leaf]\nbasicConstraints = critical, CA:FALSE\nkeyUsage = critical, digitalSignature\n'
  printf 'extendedKeyUsage = %s\nsubjectKeyIdentifier = hash\nauthorityKeyIdentifier = keyid:always\n' "$1"
  if [ -n "$2" ]; then printf 'subjectAltName = %s\n' "$2"; fi
}

# make_ca NAME SUBJECT: a self-signed root allowed to sign leaves only.
make_ca() {
  local name="$1" subject="$2"
  newkey "$out/$name-key.pem"
  {
    request_config "$subject"
    printf '[v3_ca]\nbasicConstraints = critical, CA:TRUE, pathlen:0\nkeyUsage = critical, keyCertSign, cRLSign\n'
    printf 'subjectKeyIdentifier = hash\nauthorityKeyIdentifier = keyid:always\n'
  } > "$work/$name.ext"
  openssl req -new -x509 -sha256 -days "$days" -key "$out/$name-key.pem" \
    -config "$work/$name.ext" -extensions v3_ca -out "$out/$name.pem"
}

# make_leaf NAME SUBJECT CA USAGE SAN: a leaf signed by CA (or self-signed when CA is "self").
make_leaf() {
  local name="$1" subject="$2" ca="$3" usage="$4" san="$5"
  newkey "$out/$name-key.pem"
  { request_config "$subject"; leaf_section "$usage" "$san"; } > "$work/$name.ext"
  if [ "$ca" = self ]; then
    openssl req -new -x509 -sha256 -days "$days" -key "$out/$name-key.pem" \
      -config "$work/$name.ext" -extensions leaf -out "$out/$name.pem"
  else
    openssl req -new -sha256 -key "$out/$name-key.pem" -config "$work/$name.ext" -out "$work/$name.csr"
    openssl x509 -req -sha256 -days "$days" -in "$work/$name.csr" \
      -CA "$out/$ca.pem" -CAkey "$out/$ca-key.pem" -set_serial "0x$(openssl rand -hex 16)" \
      -extfile "$work/$name.ext" -extensions leaf -out "$out/$name.pem" 2>/dev/null
  fi
}

# pin NAME: base64(SHA-256(DER SubjectPublicKeyInfo)), as curl's --pinnedpubkey sha256//… expects.
pin() {
  openssl x509 -in "$out/$1.pem" -pubkey -noout | openssl pkey -pubin -outform der \
    | openssl dgst -sha256 -binary | base64 > "$out/$1.spki-sha256"
}

loopback="IP:127.0.0.1, DNS:localhost"

make_ca ca "apiexplorer Test Root CA"
make_leaf server "localhost" ca serverAuth "$loopback"
make_leaf wrong-host "wrong-host.invalid" ca serverAuth "DNS:wrong-host.invalid"

make_ca other-ca "apiexplorer Untrusted Test CA"
make_leaf other-server "localhost" other-ca serverAuth "$loopback"

make_leaf self-signed "localhost" self serverAuth "$loopback"

make_ca client-ca "apiexplorer Test Client CA"
make_leaf client "apiexplorer test client" client-ca clientAuth ""

# An expired leaf from the trusted CA: `openssl x509` cannot backdate, `openssl ca` can.
newkey "$out/expired-key.pem"
{
  printf '[ca]\ndefault_ca = test\n[test]\ndatabase = %s/index.txt\nnew_certs_dir = %s\n' "$work" "$work"
  printf 'serial = %s/serial\ndefault_md = sha256\npolicy = any\ncopy_extensions = none\n' "$work"
  printf 'unique_subject = no\n[any]\ncommonName = supplied\n'
  request_config localhost
  leaf_section serverAuth "$loopback"
} > "$work/expired.cnf"
: > "$work/index.txt"
openssl rand -hex 16 > "$work/serial"
openssl req -new -sha256 -key "$out/expired-key.pem" -config "$work/expired.cnf" -out "$work/expired.csr"
openssl ca -batch -notext -config "$work/expired.cnf" -extensions leaf \
  -cert "$out/ca.pem" -keyfile "$out/ca-key.pem" \
  -startdate 20000101000000Z -enddate 20010101000000Z \
  -in "$work/expired.csr" -out "$out/expired.pem" 2>/dev/null

pin server
pin other-server
pin self-signed

# Sanity: each chain verifies where it should, and the expired leaf does not.
openssl verify -CAfile "$out/ca.pem" "$out/server.pem" "$out/wrong-host.pem" >/dev/null
openssl verify -CAfile "$out/other-ca.pem" "$out/other-server.pem" >/dev/null
openssl verify -CAfile "$out/client-ca.pem" "$out/client.pem" >/dev/null
if openssl verify -CAfile "$out/ca.pem" "$out/expired.pem" >/dev/null 2>&1; then
  echo "expired.pem unexpectedly verifies" >&2; exit 1
fi
echo "test certificates written to $out"
