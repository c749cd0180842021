/* SPDX-License-Identifier: MIT */
/* BPF of the embedded profiles, compiled at build time by
 * seccomp-profiles/gen-bpf.c (see seccomp-profiles/meson.build). */
#pragma once

#include <linux/filter.h>

extern const struct sock_filter sbx_precompiled_base[];
extern const unsigned short sbx_precompiled_base_len;
extern const struct sock_filter sbx_precompiled_layer[];
extern const unsigned short sbx_precompiled_layer_len;
extern const struct sock_filter sbx_precompiled_layer_no_network[];
extern const unsigned short sbx_precompiled_layer_no_network_len;
