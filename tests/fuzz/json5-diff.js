#!/usr/bin/env node
/* SPDX-License-Identifier: MIT */
/* Differential check of sbx's JSON5 parser against the npm `json5` package (OpenClaw's
 * parser), run by hand: random JSON5 documents, then random character-level mutations of
 * them, through both; any disagreement is printed and saved. Not a meson test (needs npm).
 *
 *   npm install --prefix /tmp/json5-oracle json5
 *   node tests/fuzz/json5-diff.js build/tests/unit/json5-canon [COUNT] [SEED]
 *   node tests/fuzz/json5-diff.js build/tests/unit/json5-canon DIR     (e.g. a libFuzzer corpus:
 *        every file in DIR that is valid UTF-8 is one input)
 *
 * Agreement means: same canonical value (tests/unit/json5/canon.js), or both refuse with the
 * same "line L col C" and words, or json5 accepts something sbx refuses on purpose
 * (policy/json5.h: unpaired surrogates, NUL in keys, depth > 128). */
'use strict'
const { spawnSync } = require('child_process')
const fs = require('fs')
const { expect } = require('../unit/json5/canon.js')
const JSON5 = require(process.env.JSON5_DIR || '/tmp/json5-oracle/node_modules/json5')

const tool = process.argv[2] || 'build/tests/unit/json5-canon'
const count = Number(process.argv[3]) || 20000
let seed = Number(process.argv[4] || Date.now() % 1000000)
const firstSeed = seed

function rnd (n) {             /* xorshift, reproducible from SEED */
        seed ^= seed << 13; seed >>>= 0
        seed ^= seed >>> 17
        seed ^= seed << 5; seed >>>= 0
        return seed % n
}
const pick = (a) => a[rnd(a.length)]

const BLANKS = [' ', '\t', '\n', '\r\n', '\v', '\f', '\u00a0', '\ufeff', '\u2028', '\u2029',
        '\u3000', '\u1680', '\u2003', '// c\n', '/* c */', '/**/', '/* * */', '// x\u2028']
const KEYS = ['a', '$', '_', 'a1', '$_x', '\u00fcml', '\u03c0', '\\u0061', 'a\\u0062', '\ud835\udc65',
        'a\u200cb', '"q"', "'q'", '""', "'a b'", '"\\u0000"', '"\\uD800"', 'null', 'Infinity',
        '__proto__', '\\u0030', 'a\u0300', '\u2160']
const NUMS = ['0', '-0', '+1', '1.5', '.5', '5.', '1e3', '1E-3', '-1e+2', '0x1F', '-0XaB',
        'Infinity', '-Infinity', '+Infinity', 'NaN', '-NaN', '9007199254740993',
        '9223372036854775807', '-9223372036854775809', '0x' + 'f'.repeat(17), '1e309', '5e-324',
        '123456789.123456789e-5', '0.1', '00', '1.e1']
const STRCHARS = ['a', 'Z', ' ', '\\n', '\\t', '\\b', '\\f', '\\v', '\\r', "\\'", '\\"', '\\\\',
        '\\0', '\\01', '\\1', '\\x41', '\\xff', '\\u00e9', '\\uD83D\\uDE00', '\\uD83D', '\\uDE00',
        '\\\n', '\\\r\n', '\\\r', '\\\u2028', '\\q', '\\\u00e9', '\u2028', '\u2029', '\u00e9',
        '\ud83d\ude00', '\u0000', '\u0001', '\t', '"', "'", '\u007f']
const NOISE = ['{', '}', '[', ']', ',', ':', '"', "'", '\\', '/', '*', '\n', '\r', ' ', 'x',
        '0', '9', '.', 'e', '+', '-', 'u', 'I', 'N', '\u2028', '\ufeff', '\ud83d\ude00', '\u0000',
        '\u00a0', '$', '_', '#', 'n', 't', 'f']

function blank () {
        return rnd(3) ? '' : pick(BLANKS)
}

function str () {
        const q = rnd(2) ? '"' : "'"
        let s = ''
        for (let n = rnd(6); n > 0; n--)
                s += pick(STRCHARS)
        return q + s + q
}

function value (depth) {
        const k = rnd(depth > 5 ? 4 : 7)
        if (k === 0)
                return pick(NUMS)
        if (k === 1)
                return str()
        if (k === 2)
                return pick(['null', 'true', 'false'])
        if (k === 3)
                return pick(NUMS)
        if (k === 4 || k === 5) {
                const parts = []
                for (let n = rnd(4); n > 0; n--)
                        parts.push(blank() + pick(KEYS) + blank() + ':' + blank() + value(depth + 1) + blank())
                return '{' + blank() + parts.join(',') + (parts.length && rnd(2) ? ',' : '') + blank() + '}'
        }
        const parts = []
        for (let n = rnd(4); n > 0; n--)
                parts.push(blank() + value(depth + 1) + blank())
        return '[' + blank() + parts.join(',') + (parts.length && rnd(2) ? ',' : '') + blank() + ']'
}

function mutate (s) {
        const cps = Array.from(s)
        for (let n = rnd(3); n >= 0; n--) {
                const at = rnd(cps.length + 1)
                const op = rnd(3)
                if (op === 0)
                        cps.splice(at, 1)
                else if (op === 1)
                        cps.splice(at, 0, pick(NOISE))
                else
                        cps.splice(at, 1, pick(NOISE))
        }
        return cps.join('')
}

const inputs = []
const corpusDir = process.argv[3] && fs.existsSync(process.argv[3]) &&
        fs.statSync(process.argv[3]).isDirectory() ? process.argv[3] : null
if (corpusDir) {
        for (const f of fs.readdirSync(corpusDir)) {
                const b = fs.readFileSync(`${corpusDir}/${f}`)
                const s = b.toString('utf8')
                if (Buffer.from(s, 'utf8').equals(b))
                        inputs.push(s)
        }
}
for (let i = 0; !corpusDir && i < count; i++) {
        let s = blank() + value(0) + blank()
        if (rnd(2))
                s = mutate(s)
        if (rnd(20) === 0)
                s = s.slice(0, rnd(s.length + 1))
        inputs.push(s)
}

const r = spawnSync(tool, [], {
        input: inputs.map((s) => JSON.stringify({ in: s })).join('\n') + '\n',
        maxBuffer: 1 << 30,
})
if (r.status !== 0)
        throw new Error(`${tool} failed: ${r.stderr}`)
const outs = r.stdout.toString().trim().split('\n').map((l) => JSON.parse(l))

/* sbx refuses a deviation wherever it occurs, even in a value a later duplicate key replaces
 * (json5's result no longer shows it): accept that when the text has such an escape. */
function deviationInText (s, msg) {
        if (/unpaired surrogate/.test(msg))
                return /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/.test(s)
        if (/key contains NUL/.test(msg))
                return /\\u0000|\\x00|\\0|\u0000/.test(s)
        return false
}

function agree (want, got) {
        if (want.ok !== undefined)
                return got.ok === want.ok || (got.code === -22 && deviationInText(want.in, got.msg))
        if (want.dev)
                return got.code === (want.dev === 'depth' ? -7 : -22)
        if (got.code === -7 && /nesting/.test(got.msg))
                return true     /* too deep for sbx before json5's later syntax error */
        if (got.code !== -22)
                return false
        if (/surrogate|key contains NUL|nesting/.test(got.msg))
                return true     /* sbx refused a deviation before json5's later syntax error */
        const [line, col] = want.err.split(':')
        let expected = `line ${line} col ${col}: ${want.msg}`
        if (/[^\x20-\x7e]/.test(want.msg))
                expected = expected.slice(0, expected.indexOf("'") + 1)
        return got.msg.startsWith(expected)
}

let bad = 0, ok = 0, err = 0, dev = 0
const failures = []
inputs.forEach((s, i) => {
        const want = expect(JSON5, s)
        if (want.ok !== undefined) ok++
        else if (want.dev) dev++
        else err++
        if (!agree(want, outs[i])) {
                bad++
                failures.push({ want, got: outs[i] })
                if (bad <= 10)
                        console.log('DISAGREE', JSON.stringify(want), JSON.stringify(outs[i]))
        }
})
if (failures.length)
        fs.writeFileSync('/tmp/json5-diff-failures.jsonl', failures.map((f) => JSON.stringify(f)).join('\n') + '\n')
console.log(`${corpusDir || 'seed ' + firstSeed}: ${inputs.length} inputs (json5 accepted ${ok}, refused ${err}, sbx deviation ${dev}); ${bad} disagreements`)
process.exit(bad ? 1 : 0)
