/* SPDX-License-Identifier: MIT */
/* A compact SHA-256 (FIPS 180-4) for verifying image layer digests. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define SBX_SHA256_DIGEST_SIZE 32
#define SBX_SHA256_HEX_SIZE 65 /* 64 hex digits + NUL */

struct sbx_sha256 {
        uint32_t h[8];
        uint64_t length; /* bytes hashed so far */
        uint8_t block[64];
        size_t fill; /* bytes waiting in block */
};

void sbx_sha256_init(struct sbx_sha256 *s);
void sbx_sha256_update(struct sbx_sha256 *s, const void *data, size_t len);
void sbx_sha256_final(struct sbx_sha256 *s, uint8_t ret_digest[SBX_SHA256_DIGEST_SIZE]);
/* Finish and write the lower-case hex digest into ret_hex (65 bytes). */
void sbx_sha256_final_hex(struct sbx_sha256 *s, char ret_hex[SBX_SHA256_HEX_SIZE]);
/* One-shot helper. */
void sbx_sha256_hex(const void *data, size_t len, char ret_hex[SBX_SHA256_HEX_SIZE]);
