/* SPDX-License-Identifier: MIT */
/* The canonical text of a parsed JSON5 value, computed identically here (from what the npm
 * `json5` package returns) and in tests/unit/json5-canon.c (from sbx's json-c tree):
 *   null true false
 *   numbers: integral values with |v| <= 2^53-1 in decimal ("-0" is "0"), NaN, Infinity,
 *            -Infinity, every other double as "d:0x" + its 16 hex IEEE-754 bits
 *   strings: JSON.stringify's escaping (controls as \b\f\n\r\t or \u00xx, quote, backslash,
 *            an unpaired surrogate as \udxxx)
 *   arrays [a,b]; objects {"k":v,...} with keys sorted by their UTF-8 bytes
 * and the deviations sbx makes on purpose (see policy/json5.h). */
'use strict'

function num (v) {
        if (Number.isNaN(v))
                return 'NaN'
        if (v === Infinity)
                return 'Infinity'
        if (v === -Infinity)
                return '-Infinity'
        if (Number.isSafeInteger(v))
                return String(v === 0 ? 0 : v)
        const b = Buffer.alloc(8)
        b.writeDoubleBE(v)
        return 'd:0x' + b.toString('hex')
}

function canon (v) {
        if (v === null)
                return 'null'
        if (typeof v === 'boolean')
                return String(v)
        if (typeof v === 'number')
                return num(v)
        if (typeof v === 'string')
                return JSON.stringify(v)
        if (Array.isArray(v))
                return '[' + v.map(canon).join(',') + ']'
        const keys = Object.keys(v).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
        return '{' + keys.map((k) => JSON.stringify(k) + ':' + canon(v[k])).join(',') + '}'
}

/* Why sbx must refuse a value json5 accepts, or null. */
function deviation (v, depth = 0) {
        if (v === null || typeof v !== 'object')
                return null
        if (depth + 1 > 128)
                return 'depth'
        for (const k of Object.keys(v)) {
                const d = deviation(v[k], depth + 1)
                if (d)
                        return d
        }
        return null
}

/* The expected record for one input, as the oracle file stores it. */
function expect (JSON5, input) {
        let v
        try {
                v = JSON5.parse(input)
        } catch (e) {
                const m = /^JSON5: (.*) at (\d+):(\d+)$/.exec(e.message)
                if (!m)
                        throw new Error('unexpected json5 message: ' + e.message)
                return { in: input, err: `${m[2]}:${m[3]}`, msg: m[1] }
        }
        const dev = deviation(v)
        if (dev)
                return { in: input, dev }
        return { in: input, ok: canon(v) }
}

module.exports = { canon, deviation, expect }
