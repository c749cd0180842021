/* SPDX-License-Identifier: MIT */
/* Every sbx command, in `sbx --help` order: main.c dispatches through this
 * list and runtime/gendoc.c writes the man pages and completion from it. */
#include "cli.h"

const sbx_cli_cmd *const sbx_cli_commands[] = {
        &sbx_cmd_run,     &sbx_cmd_create,   &sbx_cmd_exec,   &sbx_cmd_ls,          &sbx_cmd_inspect, &sbx_cmd_logs, &sbx_cmd_start,
        &sbx_cmd_stop,    &sbx_cmd_rm,       &sbx_cmd_pause,  &sbx_cmd_unpause,     &sbx_cmd_prune,
        &sbx_cmd_recreate, &sbx_cmd_diff,    &sbx_cmd_commit, &sbx_cmd_reset,       &sbx_cmd_explain,
        &sbx_cmd_check,   &sbx_cmd_migrate,  &sbx_cmd_doctor, &sbx_cmd_rootfs,      &sbx_cmd_rootfs_build,
        &sbx_cmd_rootfs_import, &sbx_cmd_rootfs_ls, &sbx_cmd_rootfs_inspect, &sbx_cmd_rootfs_rm, &sbx_cmd_network,
        NULL
};
