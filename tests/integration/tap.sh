# SPDX-License-Identifier: MIT
# TAP helpers of the shell tests (sourced by lib.sh, net-lib.sh and the e2e
# test): ok, not_ok, skip, is, like, unlike, done_testing.
tap_n=0
tap_failed=0
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok() { tap_n=$((tap_n + 1)); tap_failed=1; echo "not ok $tap_n - $*"; }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $*"; }
# is DESC GOT WANT
is() {
        if [ "$2" = "$3" ]; then ok "$1"; else
                not_ok "$1"; printf '#   got: %s\n#  want: %s\n' "$2" "$3" | head -20
        fi
}
# like DESC GOT REGEX (grep -E)
like() {
        if printf '%s\n' "$2" | grep -Eq -- "$3"; then ok "$1"; else
                not_ok "$1"; printf '#   got: %s\n#  want: /%s/\n' "$2" "$3" | head -20
        fi
}
unlike() {
        if printf '%s\n' "$2" | grep -Eq -- "$3"; then
                not_ok "$1"; printf '#   got: %s\n#  must not match: /%s/\n' "$2" "$3" | head -20
        else ok "$1"; fi
}
done_testing() { echo "1..$tap_n"; exit $tap_failed; }
