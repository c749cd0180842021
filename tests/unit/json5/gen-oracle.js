#!/usr/bin/env node
/* SPDX-License-Identifier: MIT */
/* Regenerate tests/unit/json5/oracle.jsonl: edge-case inputs and what the npm `json5` package
 * (the parser OpenClaw uses) makes of them. test-json5 replays the file without npm.
 *
 *   npm install --prefix /tmp/json5-oracle json5
 *   node tests/unit/json5/gen-oracle.js /tmp/json5-oracle/node_modules/json5 \
 *        > tests/unit/json5/oracle.jsonl
 *
 * Each line: {"in": text, "ok": canonical value} | {"in", "err": "L:C", "msg": json5's words}
 * | {"in", "dev": why sbx refuses what json5 accepts}; see canon.js. */
'use strict'
const path = require('path')
const { expect } = require('./canon.js')
const JSON5 = require(process.argv[2] || '/tmp/json5-oracle/node_modules/json5')

const cases = [
        /* empty input and blanks */
        '', ' ', '\n', '\ufeff', '\t\v\f\r\n \u00a0\ufeff\u2028\u2029',
        '\ufeff1', '1\ufeff', '\ufeff\ufeff{}', '\u00a01\u00a0', '\v\f1', '\u20281\u2029',
        '\u30001', '\u16801', '\u202f1', '\u205f1', '\u20001\u200a', '\u180e1', '\u200b1',
        '\u00851', '\u00a0', '\r\n1\r\n', '\r\r@', '\n\n  @', '\t\t[\n1,\n2\n]\n',
        /* comments */
        '// c\n1', '/* c */ 1', '1 // trailing', '1 /* x */', '/* unterminated', '/* a *',
        '/* a **', '/**/1', '/***/1', '/* ** */1', '/* a * / b */2', '/ 1', '/', '1 /', '1 /x',
        '[1,/*c*/2]', '{/*c*/a/*c*/:/*c*/1/*c*/}', '// only a comment', '/* only */', '1 // c\r2',
        '1 // c\u2028', '// a\u2028 1', '// a\u2029 1', '/*\n\n*/ @', '/* \ud83d\ude00 */ @',
        '// x\n// y\n3', '1 //', '1 /*/ 2', '1 /*/', '/*/*/1', '//\n{}',
        /* literals */
        'null', 'true', 'false', ' null ', 'nul', 'tru', 'fals', 'nulll', 'True', 'NULL',
        'undefined', 'n', 'nulx', 'truex', '\ufeffnull',
        /* numbers */
        '0', '-0', '+0', '00', '01', '1', '+1', '-1', '123', '1.5', '.5', '-.5', '+.5', '5.', '-5.',
        '5.e3', '.e3', '.', '-', '+', '--1', '+-1', '-+1', '1e3', '1E3', '1e+3', '1e-3', '1e', '1e+',
        '1e-', '1.2.3', '0x1F', '0X1f', '-0x1F', '+0xA', '0x', '0xG', '0x1.5', '0x1p3',
        '0xFFFFFFFFFFFFFFFF', '0x7FFFFFFFFFFFFFFF', '0x8000000000000000', '0x1FFFFFFFFFFFFF',
        '0x20000000000001', '0x20000000000003', '0x20000000000005', '0x' + 'F'.repeat(40),
        '0x' + '1'.repeat(300), '9007199254740991', '9007199254740992', '9007199254740993',
        '9223372036854775807', '9223372036854775808', '-9223372036854775808',
        '-9223372036854775809', '18446744073709551615', '1e18', '1e19', '-1e19', '1e308', '1e309',
        '-1e309', '1e-324', '5e-324', '2.4703282292062328e-324', '2.4703282292062327e-324',
        '0.1', '0.30000000000000004', '123456789012345678901234567890', '1.7976931348623157e308',
        '1.7976931348623158e308', '1.7976931348623159e308', '2.2250738585072011e-308',
        '1' + '0'.repeat(400), '0.' + '0'.repeat(400) + '1', '9'.repeat(30) + 'e-10',
        '1' + '0'.repeat(30) + '.5', '0.5e1', '2.0', '-2.0', '3.000000000000001', '1e0', '1e-0',
        '1e00000000000000000000000003', '1e-99999999999999', '1e99999999999999',
        'Infinity', '-Infinity', '+Infinity', 'NaN', '-NaN', '+NaN', 'infinity', 'Inf', 'Infinit',
        'NaNa', 'nan', 'N', 'I', '-I', '-Inf', '1 2', '1a', '0b1', '0o7', '08', '1_000', '.5.',
        '0.', '0.e1', '0e', '0E1', '-.', '1.5e', '1e1.5', '- 1', '+ 1', '0x1e', '0x1E+1', '0.0',
        '-0.0', '-0e5', '0xa.', '1..', '.5e-3', '-.5E+3', '1.e', '0x-1', '\u0661',
        '[Infinity,-Infinity,NaN,-0,+1,.5,5.,0x10]',
        /* strings */
        '"abc"', "'abc'", '"a\'b"', "'a\"b'", '"\\\'"', "'\\\"'", '""', "''",
        '"\\b\\f\\n\\r\\t\\v\\0"', '"\\0"', '"\\01"', '"\\00"', '"\\08"', '"\\0a"', '"\\0\\0"',
        '"\\1"', '"\\9"', '"\\x41"', '"\\x4"', '"\\x4"x', '"\\xG1"', '"\\xff"', '"\\x00"',
        '"\\u0041"', '"\\u00e9"', '"\\u004"', '"\\u004g"', '"\\uD83D\\uDE00"', '"\\ud83d\\ude00"',
        '"\\uD83D\\\n\\uDE00"', '"\\u0000"', '"a\\u0000b"', '"\\u2028\\u2029"', '"\\uFFFF"',
        '"\\uFEFF"', '"a\\\nb"', '"a\\\r\nb"', '"a\\\rb"', '"a\\\r\rb"', '"a\\\u2028b"',
        '"a\\\u2029b"', '"a\u2028b"', '"a\u2029b"', '"a\nb"', '"a\rb"', '"a\r\nb"', '"abc', "'abc",
        '"\\', '"\\q\\w\\e"', '"\\a\\c\\d"', '"\\\ud83d\ude00"', '"\\\u00e9"', '"\\/"', '"\\ "',
        '"a\u0000b"', '"\u0001\u001f"', '"\t"', '"\u007f\u0080\u009f"', '"\ud83d\ude00"',
        '"a"b', '"a" "b"', '"\\u12', '"\\u', '"\\x', '"\\x1', "'\\'", '"\\"', "'a\\\n'",
        '"\u00e9\u4e2d\ud834\udd1e"', '"' + 'x'.repeat(10000) + '"', '"\\\\"', "'\\\\\\''",
        /* unpaired surrogates and NULs (sbx keeps them as WTF-8 and C0 80); too deep (sbx refuses) */
        '"\\uD83D"', '"\\uDE00"', '"\\uDE00\\uD83D"', '"\\uD83Dx"', '"\\uD83D\\uD83D\\uDE00"',
        '{"\\uD800":1}', '{"a\\u0000b":1}', "{'\\0':1}", '{"\\x00":1}',
        '['.repeat(129) + ']'.repeat(129), '{a:'.repeat(129) + '1' + '}'.repeat(129),
        /* keys */
        '{a:1}', '{$:1}', '{_:1}', '{$_a1:1}', '{A_$9:1}', '{1a:1}', '{a-b:1}', '{\u00fcmlaut:1}',
        '{\u03c0:3}', '{\\u0061b:1}', '{a\\u0062:1}', '{\\u0030:1}', '{a\\u0030:1}', '{\\x61:1}',
        '{\\u00:1}', '{\\u00x1:1}', '{\\:1}', '{a\\:1}', '{a\\x:1}', '{a\\u200Cb:1}',
        '{a\u200cb:1}', '{\u200cb:1}', '{\\u200C:1}', '{a\\u200D:1}', '{\ud835\udc65:1}',
        '{a\ud835\udc65:1}', '{\ud83d\ude42:1}', '{a\ud83d\ude42:1}', '{a\\uD835\\uDC65:1}',
        '{ab c:1}', '{"":1}', "{'':1}", "{'a':1}", '{"a":1}', '{a:1,a:2}', '{a:1,b:2,a:3}',
        '{a:{x:1},a:{y:2}}', '{__proto__:1}', '{"__proto__":{"x":1}}', '{constructor:1}',
        '{null:1}', '{true:1}', '{Infinity:1}', '{NaN:1}', '{if:1}', '{class:1}', '{"a" 1}',
        '{a 1}', '{a:}', '{:1}', '{a::1}', '{a:1 b:2}', '{a:1;}', '{', '{a', '{a:', '{a:1',
        '{a:1,', '{a:1,b', '}', '{a:1}}', '{\\u0024:1}', '{\\u005F:1}', '{\\u005f\\u0024:1}',
        '{\\u0041\\u0042:1}', '{a\\u002D:1}', '{\u00aa:1}', '{\u00b7:1}', '{a\u00b7:1}',
        '{\u0660:1}', '{a\u0660:1}', '{\u2160:1}', '{a\u0300:1}', '{\u0300:1}', '{\u309b:1}',
        '{\u2118:1}', '{a\u00b7\u0387:1}', '{\u1885:1}', '{\ud800\udc00:1}', '{\u{2f800}:1}',
        '{\u{e0100}:1}', '{a\u{e0100}:1}', '{2:1,1:2,b:3,a:4}', '{"a\\nb":1}', "{'a b':1}",
        '{ a : 1 , }', '{a\n:\n1\n,\n}', '{/**/"a"/**/://**/\n1}', '{"a":1,"a":null}',
        /* arrays and nesting */
        '[]', '{}', '[[]]', '[{}]', '{a:[]}', '[', ']', '[1', '[1,', '[[1]', '[1,]', '[1,,]', '[,]',
        '[,1]', '[ , 1]', '{,}', '{a:1,,}', '{a:1,}', '[1,2,]', '{"a":1 ,}', '[1 2]', '[1;2]',
        '[1],', '1,', '[] []', '{a:{b:{c:[1,{d:[]}]}}}', '[null,true,false,"s",1,{}]',
        '['.repeat(128) + ']'.repeat(128), '['.repeat(128) + '1' + ']'.repeat(128),
        '{a:'.repeat(127) + '[1]' + '}'.repeat(127), '[a]', '[@]', '[\n1,\n2\n@]',
        /* other characters in value position */
        'a', '@', '#', '`', 'x', '()', '\u0000', '1\u0000', '"x"\u0000', '\u00e9', '\ud83d\ude00',
        '"\ud83d\ude00" x', '"\ud83d\ude00" \ud83d\ude00', '\u2028@', 'x\ud83d\ude00y',
        /* a realistic openclaw.json */
        `// OpenClaw config
{
  agents: {
    defaults: {
      sandbox: { mode: 'non-main', scope: "session", workspaceAccess: 'rw', },
    },
    list: [
      { id: 'main', default: true, },
      { id: "work", sandbox: { docker: { network: 'none', memory: "1g", pidsLimit: 256, cpus: 1.5 } } },
    ],
  },
  tools: { deny: ['browser', "canvas"], allow: [], },
  /* session */ session: { dmScope: 'per-peer', idleMinutes: 0x3C, },
}
`,
]

for (const input of cases) {
        if (Buffer.from(input, 'utf8').toString('utf8') !== input)
                throw new Error('test input is not valid Unicode: ' + JSON.stringify(input))
        process.stdout.write(JSON.stringify(expect(JSON5, input)) + '\n')
}
