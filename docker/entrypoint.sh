#!/bin/sh
# The image's entry point. Started as root (the default), it prepares the state directory and the
# mount directory for PUID:PGID, then runs the command, by default `dotnet NzbDav.dll`, as that user
# and group with UMASK. Started as another user (`docker run --user`), it applies UMASK and runs the
# command as that user. Arguments starting with "-" are passed to the server
# (`docker run nzbdav:latest --demo`).
#
# Environment (the image sets the defaults; docs/deployment.md explains them):
#   PUID, PGID  numeric user and group id the server (and the rclone it starts) runs as: 1000
#   UMASK       octal umask of the files they create: 002
#   NzbDav__DataDirectory  the only state (settings, database, logs, the rclone cache): /config
#   NzbDav__MountPath      the managed rclone mount's directory: /mnt/nzbdav
# Overridable so the script can be tested outside a container
# (backend/tests/NzbDav.Server.Tests/Deployment/EntrypointTests.cs):
#   NZBDAV_CONFIG_DIR  (default $NzbDav__DataDirectory, else /config)
#   NZBDAV_MOUNT_DIR   (default $NzbDav__MountPath, else /mnt/nzbdav)
#   NZBDAV_MOUNTINFO   (default /proc/self/mountinfo)
#   NZBDAV_DLL         (default /app/NzbDav.dll)
set -eu

say() { printf 'nzbdav-entrypoint: %s\n' "$*" >&2; }
die() {
  say "error: $*"
  exit 1
}

is_number() {
  case "$1" in
    '' | *[!0-9]*) return 1 ;;
    *) return 0 ;;
  esac
}

config_dir=${NZBDAV_CONFIG_DIR:-${NzbDav__DataDirectory:-/config}}
mount_dir=${NZBDAV_MOUNT_DIR:-${NzbDav__MountPath:-/mnt/nzbdav}}
mountinfo=${NZBDAV_MOUNTINFO:-/proc/self/mountinfo}
umask_value=${UMASK:-002}

# No command, or only options: run the server with them.
if [ "$#" -eq 0 ] || [ "${1#-}" != "$1" ]; then
  set -- dotnet "${NZBDAV_DLL:-/app/NzbDav.dll}" "$@"
fi

case "$umask_value" in
  '' | *[!0-7]*) die "UMASK must be an octal mask such as 002 or 027, not '$umask_value'" ;;
esac
[ "${#umask_value}" -le 4 ] || die "UMASK must be an octal mask such as 002 or 027, not '$umask_value'"
umask "$umask_value"

# The file system type mounted exactly at $1 (e.g. fuse.rclone), or nothing when it is no mount
# point. Read from the kernel's table, never by touching the directory: a FUSE mount whose rclone
# died answers every access with "Transport endpoint is not connected".
mounted_type() {
  [ -r "$mountinfo" ] || return 0
  # Field 5 is the mount point with space, tab, newline and backslash written as octal escapes.
  MOUNT_POINT=$(printf '%s' "$1" | sed 's/\\/\\134/g; s/ /\\040/g; s/\t/\\011/g') awk '
    {
      type = ""
      for (i = 7; i < NF; i++) if ($i == "-") { type = $(i + 1); break }
      if ($5 == ENVIRON["MOUNT_POINT"]) found = type
    }
    END { if (found != "") print found }' "$mountinfo"
}

# Gives the directory $1 to PUID:PGID unless it already is theirs; with "-R", everything in it too
# (once: a start after that finds the top already theirs and touches nothing).
own() {
  dir=$1
  recursive=${2:-}
  owner=$(stat -c '%u:%g' "$dir") || return 1
  [ "$owner" = "$PUID:$PGID" ] && return 0
  say "giving $dir${recursive:+ and everything in it} to $PUID:$PGID (was $owner)"
  if [ -n "$recursive" ]; then
    # -h: symbolic links themselves, never what they point to (the library's links point into the mount).
    chown -R -h "$PUID:$PGID" "$dir"
  else
    chown "$PUID:$PGID" "$dir"
  fi
}

trim() {
  path=$1
  while [ "${#path}" -gt 1 ] && [ "${path%/}" != "$path" ]; do path=${path%/}; done
  printf '%s' "$path"
}

if [ "$(id -u)" = 0 ]; then
  PUID=${PUID:-1000}
  PGID=${PGID:-1000}
  is_number "$PUID" || die "PUID must be a number (a user id such as 1000), not '$PUID'"
  is_number "$PGID" || die "PGID must be a number (a group id such as 1000), not '$PGID'"

  config_dir=$(trim "$config_dir")
  mkdir -p "$config_dir" || die "cannot create the state directory $config_dir"
  own "$config_dir" -R || say "warning: could not give $config_dir to $PUID:$PGID; the server may not be able to write its state"

  # The managed mount (Mount:Enabled) mounts here as PUID, which needs write access to the directory
  # (fusermount3 checks it). A FUSE mount already there, alive or left by an earlier run, is left
  # alone: the server takes it down itself. A directory bound from the host is given to PUID:PGID.
  mount_dir=$(trim "$mount_dir")
  fs_type=$(mounted_type "$mount_dir")
  case "$fs_type" in
    fuse*) say "$mount_dir is already a FUSE mount ($fs_type); left to the server" ;;
    *)
      if mkdir -p "$mount_dir" 2>/dev/null; then
        own "$mount_dir" || say "warning: could not give $mount_dir to $PUID:$PGID; the managed mount may fail there"
        parent=$(dirname "$mount_dir")
        if [ "$parent" != / ] && [ -z "$(mounted_type "$parent")" ]; then
          own "$parent" || say "warning: could not give $parent to $PUID:$PGID"
        fi
      else
        say "warning: cannot create $mount_dir; the managed mount (Mount:Enabled) cannot start there"
      fi
      ;;
  esac

  export HOME="$config_dir"
  exec setpriv --reuid="$PUID" --regid="$PGID" --clear-groups -- "$@"
fi

# Not root (docker run --user): there is nobody to switch to.
uid=$(id -u)
gid=$(id -g)
ignored=""
if [ -n "${PUID:-}" ] && [ "$PUID" != "$uid" ]; then ignored="PUID=$PUID"; fi
if [ -n "${PGID:-}" ] && [ "$PGID" != "$gid" ]; then ignored="${ignored:+$ignored }PGID=$PGID"; fi
if [ -n "$ignored" ]; then
  say "note: $ignored cannot be applied: the container was started as $uid:$gid (docker run --user), so the server runs as $uid:$gid; start it as root to use PUID/PGID"
fi
if [ -d "$config_dir" ] && [ -w "$config_dir" ]; then
  export HOME="$config_dir"
fi
exec "$@"
