#!/bin/bash
# SPDX-License-Identifier: MIT
# The Debian package (issue 17), TAP: build it with dpkg-buildpackage from a
# copy of the source tree, install it with `apt-get install ./sbx_*.deb` into a
# clean Debian 12 root (debootstrap minbase from apt's configured mirror,
# cached in $SBX_BUILD_ROOT/package/, or in $SBX_PACKAGE_CACHE when set: the
# ci lane keeps it once per machine in /var/cache/sbx-ci, as it does the image), run sbx from the installed paths there
# (sbx run, sbx create/exec/rm, the docker drop-in, man), purge it and compare
# the root's file list with the one before.
#
# The root is entered with a new mount namespace and pivot_root, never chroot:
# the kernel refuses CLONE_NEWUSER to a chrooted process. Its network is the
# host's (apt fetches the dependencies from the mirror); every sandbox started
# in it has --network none.
set -u
SRC=${SBX_SOURCE_ROOT:?} BLD=${SBX_BUILD_ROOT:?} SBX=${SBX:?}
. "$SRC/tests/integration/tap.sh"
. "$SRC/tests/integration/tiny-rootfs.sh"

if [ "$(id -u)" != 0 ]; then
        echo "1..0 # SKIP needs root: debootstrap, mounts and apt-get in the clean root"
        exit 0
fi
for t in dpkg-buildpackage dh debootstrap unshare pivot_root; do
        command -v $t >/dev/null || { echo "1..0 # SKIP $t is missing (.ci/bootstrap installs it)"; exit 0; }
done

W=$BLD/package        # the build copy, the .deb, the cached root, the overlay
OUT=$W/out
CACHE=${SBX_PACKAGE_CACHE:-$W}
ROOT=$CACHE/root-bookworm # the clean root, never written after it is made
RUN=$W/run            # this run: an overlay over $ROOT (upper, work, merged)
M=$RUN/merged
P=/tmp/sbx-pkg        # scratch inside the root, removed before the last snapshot
mkdir -p "$W" "$CACHE"

# ---------------------------------------------------------------- the root
# inroot CMD...: CMD in the root at $M, in a new mount namespace whose root it
# is (pivot_root), with a fresh /proc and the host's /sys and /dev.
inroot() {
        unshare --mount --propagation private -- bash -c '
                set -e; M=$1; shift
                mount -t proc proc "$M/proc"
                mount --rbind /sys "$M/sys"
                mount --rbind /dev "$M/dev"
                cd "$M"
                pivot_root . mnt
                umount -l /mnt
                cd /
                exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
                        HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"' _ "$M" "$@"
}
# insbx CMD...: the same with sbx's state, images and workspaces in $P and a
# `docker` symlink to the installed sbx first on PATH.
insbx() {
        inroot env XDG_RUNTIME_DIR=$P/run SBX_IMAGE_DIR=$P/images SBX_WORKSPACE_ROOT=$P/ws \
                PATH=$P/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}
snapshot() {    # the root's file list, without the package manager's own state
        inroot find / -xdev \( -path /var/lib/dpkg -o -path /var/lib/apt -o -path /var/cache \
                -o -path /var/log -o -path /mnt \) -prune -o -print | sort
}
cleanup() {
        if mountpoint -q "$M" 2>/dev/null; then
                [ -d "$M$P/run" ] && insbx sbx rm -f --all >/dev/null 2>&1
                umount -l "$M$P" 2>/dev/null
                umount -l "$M"
        fi
        rm -rf --one-file-system "$RUN"
}
on_exit cleanup
cleanup         # an earlier run killed half-way

# ---------------------------------------------------------------- build
rm -rf "$OUT"
mkdir -p "$OUT/src"
stamp=$W/stamp
touch "$stamp"
if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
        # what git tracks, plus new files not ignored (a change being tested)
        git -C "$SRC" ls-files -co --exclude-standard -z | (cd "$SRC" && tar -c --null -T -) | tar -x -C "$OUT/src"
else
        (cd "$SRC" && tar -c --exclude='./build*' --exclude=./.git .) | tar -x -C "$OUT/src"
fi
t0=$(date +%s)
(cd "$OUT/src" && DEB_BUILD_OPTIONS="nocheck noddebs" dpkg-buildpackage -b -us -uc) >"$W/build.log" 2>&1
rc=$?
is "dpkg-buildpackage -b -us -uc builds the package ($(( $(date +%s) - t0 ))s, from a copy of the tree)" "$rc" 0
[ $rc -eq 0 ] || { tail -30 "$W/build.log" | sed 's/^/# /'; done_testing; }
deb=$(ls "$OUT"/sbx_*.deb 2>/dev/null | head -1)
like "... and it is sbx_VERSION_ARCH.deb" "${deb##*/}" '^sbx_[0-9][^_]*_[a-z0-9]+\.deb$'
is "the package version (debian/changelog) is meson's project version" "$(dpkg-deb -f "$deb" Version)" \
        "$(meson introspect --projectinfo "$BLD" | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')"
is "the source tree is unchanged by the package build (nothing newer outside build*/, .git)" \
        "$(find "$SRC" \( -path "$SRC/build*" -o -path "$SRC/.git" \) -prune -o -newer "$stamp" -print | head -5)" ""

deps=$(dpkg-deb -f "$deb" Depends)
for lib in libseccomp2 libmnl0 libjson-c5; do
        like "Depends (from \${shlibs:Depends}) names $lib" "$deps" "(^|, )$lib( |,|$)"
done
unlike "Depends does not name libcap2 (sbx has its own capability names, links no libcap)" "$deps" "(^|, )libcap2( |,|$)"
like "Depends names libarchive13 (dlopened by sbx rootfs import: shlibs cannot see it)" "$deps" "(^|, )libarchive13( |,|$)"
like "Recommends passt and nftables" "$(dpkg-deb -f "$deb" Recommends)" 'passt.*nftables|nftables.*passt'
# The package holds what meson installs, nothing hand-listed: compare with a
# `meson install` of the very build directory dh used (dh compresses man pages
# and adds /usr/share/doc/sbx).
meson install -C "$(ls -d "$OUT"/src/obj-*/ | head -1)" --destdir "$OUT/meson-destdir" --no-rebuild >/dev/null 2>&1
is "the .deb holds exactly the files 'meson install' installs (+ /usr/share/doc/sbx)" \
        "$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | grep -v '^\./usr/share/doc/sbx/' | sed 's/\.gz$//' | sort)" \
        "$(cd "$OUT/meson-destdir" && find . ! -type d | sort)"

# ---------------------------------------------------------------- clean root
mirror=$("$SBX" rootfs build --print-mirror 2>/dev/null)
# man-db for `man`; netbase as on any installed Debian (its postinst writes an
# /etc/hosts that its purge keeps: in the base it is not ours to leave behind)
include=man-db,netbase
# one maker at a time (CI runs of two clones share $SBX_PACKAGE_CACHE)
exec 8>"$CACHE/root-bookworm.lock" && flock 8
if [ "$(cat "$ROOT/.sbx-clean-root" 2>/dev/null)" != "$mirror $include" ]; then
        rm -rf --one-file-system "$ROOT"
        if ! curl -sf --max-time 20 -o /dev/null "$mirror/dists/bookworm/Release"; then
                skip "Debian mirror '$mirror' (from apt's sources) unreachable: no clean root, nothing to install into"
                done_testing
        fi
        t0=$(date +%s)
        rm -rf "$ROOT.new"
        debootstrap --variant=minbase --include=$include bookworm "$ROOT.new" "$mirror" >"$W/debootstrap.log" 2>&1
        rc=$?
        if [ $rc -eq 0 ]; then
                # apt's Debian sources of this host (mirror, updates, security): the
                # package's shlibs may need a library version from an update
                apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(TARGET_OF)' |
                        awk '$3 == "deb" && $2 ~ /^bookworm(-updates|-security)?$/ {print "deb " $1 " " $2 " main"}' |
                        sort -u > "$ROOT.new/etc/apt/sources.list"
                printf '#!/bin/sh\nexit 101\n' > "$ROOT.new/usr/sbin/policy-rc.d"   # start no service
                chmod 755 "$ROOT.new/usr/sbin/policy-rc.d"
                chroot "$ROOT.new" apt-get clean
                echo "$mirror $include" > "$ROOT.new/.sbx-clean-root" && mv "$ROOT.new" "$ROOT"
        fi
        is "a clean bookworm root: debootstrap minbase + $include from $mirror ($(( $(date +%s) - t0 ))s, cached in $CACHE)" "$rc" 0
        [ $rc -eq 0 ] || { tail -20 "$W/debootstrap.log" | sed 's/^/# /'; done_testing; }
else
        ok "a clean bookworm root (cached in $ROOT)"
fi
exec 8>&-
mkdir -p "$RUN/upper" "$RUN/work" "$M"
mount -t overlay overlay -o "lowerdir=$ROOT,upperdir=$RUN/upper,workdir=$RUN/work" "$M"
cp /etc/resolv.conf "$M/etc/resolv.conf"
is "in the root (pivot_root, not chroot): the build tree is not visible, CLONE_NEWUSER works" \
        "$(inroot sh -c "[ -e '$BLD' ] && echo build-tree-visible; unshare --user true && echo userns")" userns
out=$(inroot sh -c 'dpkg-query -W -f "\${db:Status-Abbrev} \${Package}\n" sbx libmnl0 libjson-c5 libarchive13 2>/dev/null | grep "^ii"')
is "before: sbx, libmnl0, libjson-c5, libarchive13 are not installed in the root (apt must fetch them)" "$out" ""
pkgs() { inroot dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" {print $2}'; }
before=$(snapshot) pkgs_before=$(pkgs)
# sbx's scratch ($P: state, images, workspaces) on the build directory's file
# system, as on an installed machine: overlayfs has no idmapped mounts
mkdir -p "$RUN/scratch" "$M$P"
mount --bind "$RUN/scratch" "$M$P"

# ---------------------------------------------------------------- install
t0=$(date +%s)
out=$(inroot apt-get update -q 2>&1) || { echo "$out" | tail -5 | sed 's/^/# /'; }
mkdir -p "$M$P/bin"
cp "$deb" "$M$P/"
out=$(inroot sh -c "cd $P && apt-get install -y -q ./${deb##*/}" 2>&1); rc=$?
is "apt-get install ./${deb##*/} in the clean root ($(( $(date +%s) - t0 ))s with apt-get update)" "$rc" 0
[ $rc -eq 0 ] || echo "$out" | tail -15 | sed 's/^/# /'
is "the Depends are installed with it" \
        "$(inroot dpkg-query -W -f '${db:Status-Abbrev}\n' libseccomp2 libmnl0 libjson-c5 libarchive13 2>&1 | sort -u)" "ii "
is "sbx is /usr/bin/sbx, sbx-init in /usr/libexec/sbx" \
        "$(inroot sh -c 'command -v sbx; test -x /usr/libexec/sbx/sbx-init && echo init')" "/usr/bin/sbx
init"

# ---------------------------------------------------------------- use
out=$(insbx sbx run --network none -- /bin/sh -c 'echo "hi $(id -u)"; grep -E "^(NoNewPrivs|Seccomp):" /proc/self/status; tail -n +3 /proc/net/dev | wc -l' 2>&1)
is "sbx run: a command runs sandboxed (no_new_privs, seccomp, only lo)" "$out" "hi 0
NoNewPrivs:	1
Seccomp:	2
1"
out=$(insbx sbx create --network none pkg1 2>&1); rc=$?
like "sbx create pkg1: exit 0, prints the id (sbx-init from /usr/libexec/sbx)" "$rc $out" '^0 [0-9a-f]{64}$'
host_ns=$(inroot readlink /proc/self/ns/pid)
in=$(insbx sbx exec pkg1 -- readlink /proc/self/ns/pid 2>&1)
like "sbx exec pkg1: runs in the sandbox" "$in" '^pid:\[[0-9]+\]$'
is "... in its own pid namespace, not the root's ($host_ns)" "$([ "$in" != "$host_ns" ] && echo other)" other
is "sbx ls -q lists pkg1" "$(insbx sbx ls -q 2>&1)" pkg1
out=$(insbx sbx rm -f pkg1 2>&1); rc=$?
is "sbx rm -f pkg1: exit 0, none left" "$rc $(insbx sbx ls -q 2>&1)" "0 "

# the docker drop-in: `docker` -> /usr/bin/sbx, an image imported with the
# installed sbx (libarchive13, dlopened)
tiny_rootfs "$RUN/tree" /usr/bin/dash /usr/bin/cat /usr/bin/sleep
echo pkg-image > "$RUN/tree/etc/marker"
python3 "$SRC/tests/integration/rootfs-mkarchive.py" tree "$M$P/img.tar" "$RUN/tree" sbx-pkg/tiny:1
ln -s /usr/bin/sbx "$M$P/bin/docker"
out=$(insbx sbx rootfs import $P/img.tar 2>&1); rc=$?
is "sbx rootfs import of a docker archive (libarchive13 dlopened)" "$rc" 0
[ $rc -eq 0 ] || echo "$out" | tail -5 | sed 's/^/# /'
out=$(insbx docker create --name dk1 --network none sbx-pkg/tiny:1 sleep infinity 2>&1); rc=$?
like "docker create --name dk1 (docker -> /usr/bin/sbx): exit 0, an id" "$rc $out" '^0 [0-9a-f]{64}$'
out=$(insbx docker start dk1 2>&1); rc=$?
is "docker start dk1: exit 0" "$rc" 0
[ $rc -eq 0 ] || echo "$out" | tail -5 | sed 's/^/# /'
is "docker inspect -f {{.State.Running}} dk1: true" "$(insbx docker inspect -f '{{.State.Running}}' dk1 2>&1)" true
is "docker exec dk1: runs in the image" "$(insbx docker exec dk1 cat /etc/marker 2>&1)" pkg-image
out=$(insbx docker rm -f dk1 2>&1); rc=$?
is "docker rm -f dk1: exit 0, docker ps -aq empty" "$rc $(insbx docker ps -aq 2>&1)" "0 "

if inroot dpkg -L sbx | grep -q '/man1/sbx-run\.1'; then
        is "man -w sbx-run: the installed page" "$(inroot man -w sbx-run 2>&1)" /usr/share/man/man1/sbx-run.1.gz
        out=$(inroot env MANPAGER=cat MANWIDTH=80 man sbx-run 2>&1); rc=$?
        like "man sbx-run renders (exit $rc): a NAME section naming sbx-run" \
                "$rc $(sed -n '/^NAME/,/^$/p' <<<"$out" | tr '\n' ' ')" '^0 NAME +sbx.run'
else
        skip "man sbx-run: meson installs no man pages yet (issue 17's man pages not landed)"
fi

# ---------------------------------------------------------------- remove
insbx sbx rm -f --all >/dev/null 2>&1
umount "$M$P" && rmdir "$M$P"
# autoremove takes back everything the install pulled in: apt would otherwise
# keep auto-installed packages a base package merely suggests (apt: gnupg)
out=$(inroot sh -c 'apt-get purge -y -q sbx && apt-get autoremove --purge -y -q \
        -o APT::AutoRemove::SuggestsImportant=false -o APT::AutoRemove::RecommendsImportant=false' 2>&1); rc=$?
is "apt-get purge sbx, then autoremove --purge of its dependencies" "$rc" 0
[ $rc -eq 0 ] || echo "$out" | tail -10 | sed 's/^/# /'
is "dpkg knows no sbx any more" "$(inroot dpkg-query -W -f '${db:Status-Abbrev}' sbx 2>/dev/null)" ""
is "the installed packages are the ones before the install" \
        "$(diff <(echo "$pkgs_before") <(pkgs) | grep '^[<>]' | head -20)" ""
is "nothing is left: the root's file list is the one before the install" \
        "$(diff <(echo "$before") <(snapshot) | grep '^[<>]' | head -20)" ""
done_testing
