#!/usr/bin/env bash
# Installs the Debian packages the tests need when they are missing: headless Chromium (browser tests) and
# LibreOffice Calc without its GUI (a real spreadsheet application reads the runner's .xlsx output), unzip (the engine
# corpus reads LibreOffice's saved sheet). Idempotent.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v soffice >/dev/null 2>&1 || missing+=(libreoffice-calc-nogui)
command -v unzip >/dev/null 2>&1 || missing+=(unzip)
if [ "${#missing[@]}" -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
  echo "Missing Debian packages (${missing[*]}) and this user cannot install them: run 'apt-get install ${missing[*]}' as root." >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
/usr/bin/chromium --version
soffice --version
