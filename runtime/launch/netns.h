/* SPDX-License-Identifier: MIT */
/* Network namespace: new and empty, with lo up. */
#pragma once

#include "launch.h"

/* Child: bring lo up over rtnetlink (libmnl message helpers on a stack
 * buffer; mnl_socket_open2 would allocate, so the socket is opened raw). */
int sbx_netns_setup_child(const sbx_plan *p, sbx_error *reterr);
