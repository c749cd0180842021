/* SPDX-License-Identifier: MIT */
/* SHA-256 (FIPS 180-4), for OpenClaw's scope keys, slugs and container names. */
#pragma once

#include <stddef.h>
#include <stdint.h>

void sbx_sha256(const void *data, size_t len, uint8_t out[32]);
/* lower-case hex of the digest into hex[65] */
void sbx_sha256_hex(const char *s, char hex[65]);
