#!/usr/bin/env bash
# Real PDFs for the upload tests (tests/unit/intake/pdf-disarm.test.ts, issue 30 item 7): two
# small Debian documentation packages that ship PDFs made by common tools.
#   camlidl-doc          /usr/share/doc/camlidl/camlidl-1.04.doc.pdf (PDF-1.2, 2007)
#   docbook-xsl-doc-pdf  /usr/share/doc/docbook-xsl-doc-pdf/doc/reference.pdf.gz (PDF-1.4, with an /OpenAction)
# Installed when missing and we can (root + apt); otherwise one line saying how.
set -euo pipefail
files=(/usr/share/doc/camlidl/camlidl-1.04.doc.pdf /usr/share/doc/docbook-xsl-doc-pdf/doc/reference.pdf.gz)
missing=0
for f in "${files[@]}"; do [ -f "$f" ] || missing=1; done
[ "$missing" = 0 ] && exit 0
packages=(camlidl-doc docbook-xsl-doc-pdf)
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "test PDFs not found: installing Debian's ${packages[*]} with apt-get" >&2
  # Documentation only: /usr/share/doc must not be excluded by dpkg's path filters for these.
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
  fi
  for f in "${files[@]}"; do
    [ -f "$f" ] || { echo "Installed ${packages[*]} but $f is still missing (is /usr/share/doc excluded by dpkg?)." >&2; exit 1; }
  done
  exit 0
fi
echo "The upload tests need real PDFs from Debian's ${packages[*]}: run 'sudo apt-get install -y ${packages[*]}' and retry." >&2
exit 1
