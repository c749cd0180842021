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
/* base over layer as one program (sbx_bpf_stack()), [0] plain, [1] no network;
 * length 0: attach the two */
extern const struct sock_filter *const sbx_precompiled_stacked[2];
extern const unsigned short sbx_precompiled_stacked_len[2];
