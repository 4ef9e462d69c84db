#!/bin/sh
# Runs its arguments as a command on a machine whose hostname does not resolve (a fresh
# container's): in a UTS namespace of its own, whose hostname is set to an unresolvable name.
# Exits 77 (CTest's "skipped") where this user may not make the namespace.
unshare -u true 2>/dev/null || exit 77
exec unshare -u sh -c 'hostname ember-unresolvable-host.invalid && exec "$@"' sh "$@"
