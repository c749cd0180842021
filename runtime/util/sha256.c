/* SPDX-License-Identifier: MIT */
/* SHA-256 as specified in FIPS 180-4, section 6.2. Written for clarity, not
 * speed: layer blobs are hashed once while they are read, which is I/O bound. */
#include <string.h>

#include "util.h"

static const uint32_t K[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror(uint32_t x, unsigned n) {
        return (x >> n) | (x << (32 - n));
}

static void compress(uint32_t h[8], const uint8_t p[64]) {
        uint32_t w[64], a, b, c, d, e, f, g, hh;

        for (unsigned i = 0; i < 16; i++)
                w[i] = (uint32_t) p[4 * i] << 24 | (uint32_t) p[4 * i + 1] << 16 |
                       (uint32_t) p[4 * i + 2] << 8 | (uint32_t) p[4 * i + 3];
        for (unsigned i = 16; i < 64; i++) {
                uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
                uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
                w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (unsigned i = 0; i < 64; i++) {
                uint32_t t1 =
                        hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
                uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
                hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
        }
        h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

void sbx_sha256_init(struct sbx_sha256 *s) {
        static const uint32_t iv[8] = {
                0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
        };
        memcpy(s->h, iv, sizeof(iv));
        s->length = 0;
        s->fill = 0;
}

void sbx_sha256_update(struct sbx_sha256 *s, const void *data, size_t len) {
        const uint8_t *p = data;

        s->length += len;
        if (s->fill > 0) {
                size_t n = 64 - s->fill < len ? 64 - s->fill : len;
                memcpy(s->block + s->fill, p, n);
                s->fill += n, p += n, len -= n;
                if (s->fill < 64)
                        return;
                compress(s->h, s->block);
                s->fill = 0;
        }
        for (; len >= 64; p += 64, len -= 64)
                compress(s->h, p);
        memcpy(s->block, p, len);
        s->fill = len;
}

void sbx_sha256_final(struct sbx_sha256 *s, uint8_t ret_digest[SBX_SHA256_DIGEST_SIZE]) {
        uint64_t bits = s->length * 8;

        s->block[s->fill++] = 0x80;
        if (s->fill > 56) {
                memset(s->block + s->fill, 0, 64 - s->fill);
                compress(s->h, s->block);
                s->fill = 0;
        }
        memset(s->block + s->fill, 0, 56 - s->fill);
        for (unsigned i = 0; i < 8; i++)
                s->block[56 + i] = (uint8_t) (bits >> (56 - 8 * i));
        compress(s->h, s->block);
        for (unsigned i = 0; i < 8; i++) {
                ret_digest[4 * i] = (uint8_t) (s->h[i] >> 24);
                ret_digest[4 * i + 1] = (uint8_t) (s->h[i] >> 16);
                ret_digest[4 * i + 2] = (uint8_t) (s->h[i] >> 8);
                ret_digest[4 * i + 3] = (uint8_t) s->h[i];
        }
}

void sbx_sha256_final_hex(struct sbx_sha256 *s, char ret_hex[SBX_SHA256_HEX_SIZE]) {
        static const char hexdig[] = "0123456789abcdef";
        uint8_t d[SBX_SHA256_DIGEST_SIZE];

        sbx_sha256_final(s, d);
        for (unsigned i = 0; i < SBX_SHA256_DIGEST_SIZE; i++) {
                ret_hex[2 * i] = hexdig[d[i] >> 4];
                ret_hex[2 * i + 1] = hexdig[d[i] & 15];
        }
        ret_hex[64] = '\0';
}

void sbx_sha256_hex(const void *data, size_t len, char ret_hex[SBX_SHA256_HEX_SIZE]) {
        struct sbx_sha256 s;

        sbx_sha256_init(&s);
        sbx_sha256_update(&s, data, len);
        sbx_sha256_final_hex(&s, ret_hex);
}
