# SPDX-License-Identifier: MIT
# tiny_rootfs DIR BIN...: a root filesystem of the host's programs BIN (full
# paths) and the libraries they load, /bin -> usr/bin and sh -> dash (sourced).
tiny_rootfs() {
        local R=$1 b lib
        shift
        mkdir -p "$R/usr/bin" "$R/etc" "$R/tmp"
        ln -s usr/bin "$R/bin"
        for b in "$@"; do
                cp -L "$b" "$R/usr/bin/"
                for lib in $(ldd "$b" | grep -o '/[^ ]*'); do
                        mkdir -p "$R$(dirname "$lib")"
                        cp -L "$lib" "$R$lib"
                done
        done
        ln -s dash "$R/usr/bin/sh"
}
