#!/usr/bin/env bash
# Configures and starts Debian's inn2 as the real NNTP server the tests read from (docs/reliability.md §1).
# Idempotent; run as root (tools/test.sh does). Afterwards:
#   127.0.0.1:119   innd (localhost is a feeding peer: transit mode until MODE READER; reading without login)
#   127.0.0.2:5563  nnrpd with implicit TLS (self-signed certificate), AUTHINFO USER/PASS required
#                   (its own loopback address, so the plain localhost group cannot match it)
# Test account nzbdav / nzbdav-test, newsgroup alt.binaries.nzbdav.test, articles up to 4 MB.
set -euo pipefail
etc=/etc/news
bin=/usr/lib/news/bin
tls_port=${NZBDAV_INN_TLS_PORT:-5563}
[ "$(id -u)" -eq 0 ] || { echo "tools/inn2/setup.sh must run as root" >&2; exit 1; }

# Debian's postinst fails on a host name without a domain (a container's "vm", say): INN needs one.
conf_changed=false
conf_set() { # key value: sets "key: value" in inn.conf
  grep -qE "^$1:[[:space:]]*$2\$" "$etc/inn.conf" && return 0
  conf_changed=true
  if grep -qE "^$1:" "$etc/inn.conf"; then sed -i -E "s|^$1:.*|$1: $2|" "$etc/inn.conf"; else echo "$1: $2" >> "$etc/inn.conf"; fi
}
if [ -f "$etc/inn.conf" ]; then
  conf_set domain nzbdav.test
  conf_set pathhost nzbdav.test
fi
if ! dpkg -s inn2 2>/dev/null | grep -q '^Status: install ok installed'; then
  dpkg --configure inn2 >/dev/null
fi
# A test machine's load average runs far above inn's defaults (nnrpd refuses readers over 16 with
# "400 load at N, try later"; innwatch pauses the server over 15): the tests' load is not a reason to refuse.
conf_set nnrpdloadlimit 0
conf_set doinnwatch false
conf_set maxartsize 4000000
conf_set localmaxartsize 4000000
conf_set bindaddress 127.0.0.1
conf_set tlscertfile "$etc/nzbdav-test-cert.pem"
conf_set tlskeyfile "$etc/nzbdav-test-key.pem"

if [ ! -s "$etc/nzbdav-test-cert.pem" ]; then
  openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=localhost" \
    -keyout "$etc/nzbdav-test-key.pem" -out "$etc/nzbdav-test-cert.pem" >/dev/null 2>&1
  chown news:news "$etc/nzbdav-test-key.pem" "$etc/nzbdav-test-cert.pem"
  chmod 0600 "$etc/nzbdav-test-key.pem"
fi
echo "nzbdav:$(openssl passwd -6 nzbdav-test)" > "$etc/nzbdav-test.passwd"
chown news:news "$etc/nzbdav-test.passwd"; chmod 0640 "$etc/nzbdav-test.passwd"

# Plain connections to 127.0.0.1 read without a login; the TLS listener on 127.0.0.2 matches only
# the group that needs one.
cat > "$etc/readers.conf" <<CONF
auth "localhost" {
    hosts: "localhost, 127.0.0.1, ::1, stdin"
    localaddress: "127.0.0.1"
    default: "<localhost>"
}
auth "tls" {
    hosts: "*"
    require_encryption: true
    auth: "ckpasswd -f $etc/nzbdav-test.passwd"
}
access "localhost" {
    users: "<localhost>"
    newsgroups: "*"
    access: RPA
}
access "tls" {
    users: "nzbdav"
    newsgroups: "*"
    access: RPA
}
CONF

running() { pgrep -u news -x "$1" >/dev/null; }
# The daemons outlive this script: they must not keep a descriptor the caller had open (a test host's
# pipe, a lock a build script holds), or whoever waits on that descriptor waits as long as inn runs.
without_inherited_fds() (
  for fd in /proc/$BASHPID/fd/*; do
    n=${fd##*/}
    if [ "$n" -gt 2 ] && [ "$n" -lt 255 ]; then eval "exec $n>&-" 2>/dev/null || true; fi
  done
  "$@"
)
listening() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
if $conf_changed && running innd; then
  # Started by the package before this configuration (TLS files, bind address, article size): restart.
  su news -s /bin/sh -c "$bin/rc.news stop" >/dev/null 2>&1 || true
  pkill -u news -x nnrpd-ssl 2>/dev/null || true
  for _ in $(seq 1 50); do running innd || break; sleep 0.2; done
fi
if ! running innd; then
  without_inherited_fds su news -s /bin/sh -c "$bin/rc.news start" >/dev/null 2>&1 || true
  for _ in $(seq 1 50); do "$bin/ctlinnd" -t 1 mode >/dev/null 2>&1 && break; sleep 0.2; done
else
  "$bin/ctlinnd" reload readers.conf "nzbdav tests" >/dev/null 2>&1 || true
fi
"$bin/ctlinnd" mode >/dev/null
grep -q '^alt.binaries.nzbdav.test ' /var/lib/news/active || "$bin/ctlinnd" newgroup alt.binaries.nzbdav.test y nzbdav >/dev/null
if ! listening 127.0.0.2 "$tls_port"; then
  without_inherited_fds su news -s /bin/sh -c "$bin/nnrpd-ssl -D -b 127.0.0.2 -p $tls_port -S"
fi
for _ in $(seq 1 50); do listening 127.0.0.2 "$tls_port" && break; sleep 0.2; done
listening 127.0.0.2 "$tls_port" || { echo "nnrpd did not start on 127.0.0.2:$tls_port" >&2; exit 1; }
echo "inn2 ready: innd 127.0.0.1:119, nnrpd TLS 127.0.0.2:$tls_port (nzbdav/nzbdav-test), group alt.binaries.nzbdav.test"
