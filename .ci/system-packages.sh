#!/bin/sh
# The Debian packages the suite needs: chromium (browser checks), redis-server (store tests) and
# openssl (the emulator's TLS test certificate). Installs what is missing on a root Debian machine
# (CI, `npm test` there); elsewhere says what is missing (the checks that need it then fail).
need=""
for bin in chromium redis-server openssl; do
  command -v "$bin" >/dev/null 2>&1 || need="$need $bin"
done
[ -z "$need" ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "> missing$need (not root or no apt-get): the checks that need them will fail"
  exit 0
fi
echo "> apt-get install$need"
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends $need >/dev/null \
  || echo "apt-get install failed: the checks that need$need will fail"
