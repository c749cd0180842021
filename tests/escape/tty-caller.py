#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A user at a terminal (escape-tty.sh): runs CMD with a pty as its
# controlling terminal and stdin/stdout/stderr, types --input lines into it,
# and, once CMD has returned, types --later into the same terminal as the
# user would type the next command of their shell. The pty's slave stays
# open here for the whole time, as the user's shell holds its terminal.
# After --wait seconds (or as soon as the shell command --until succeeds)
# this "shell" reads what reached it, and reports:
#   status: CMD's exit status
#   out: what CMD wrote to the terminal ('...', \r removed, newlines as \n,
#        lines starting with an --ignore PREFIX left out)
#   shell: what the shell read after CMD returned ('...')
#   echo: on|off  (the terminal's ECHO flag then)
# --key types KEY as it is (escapes: '\x04' is ^D, '\x03' ^C); --input and
# --key are typed 0.3 s apart, in their order.
# usage: tty-caller.py [--input LINE|--key KEY]... [--later LINE] [--wait S] [--until SH]
#                      [--ignore PREFIX]... -- CMD...
import fcntl
import os
import select
import subprocess
import sys
import termios
import time


def main():
    args = sys.argv[1:]
    inputs, later, wait, until, ignore = [], None, 2.0, None, []
    while args and args[0] != "--":
        opt, val, args = args[0], args[1], args[2:]
        if opt == "--input":
            inputs.append(val.encode() + b"\n")
        elif opt == "--key":
            inputs.append(val.encode().decode("unicode_escape").encode("latin-1"))
        elif opt == "--later":
            later = val
        elif opt == "--wait":
            wait = float(val)
        elif opt == "--until":
            until = val
        elif opt == "--ignore":
            ignore.append(val)
        else:
            sys.exit("tty-caller: unknown option " + opt)
    cmd = args[1:]
    master, slave = os.openpty()
    pid = os.fork()
    if pid == 0:
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        os.close(slave)
        os.close(master)
        os.execvp(cmd[0], cmd)
    out = b""

    def pump(seconds):
        nonlocal out
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            r, _, _ = select.select([master], [], [], left)
            if r:
                try:
                    out += os.read(master, 65536)
                except OSError:
                    return

    for line in inputs:
        pump(0.3)
        os.write(master, line)
    deadline = time.monotonic() + 60
    status = None
    while status is None and time.monotonic() < deadline:
        pump(0.05)
        p, st = os.waitpid(pid, os.WNOHANG)
        if p == pid:
            status = os.waitstatus_to_exitcode(st)
    if status is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        status = "timeout"
    pump(0.2)
    cmd_out = out
    shell = b""
    if later is not None:
        os.write(master, later.encode() + b"\n")
        end = time.monotonic() + wait
        while True:
            pump(0.1)
            if time.monotonic() > end or (until and subprocess.run(
                    until, shell=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL).returncode == 0):
                break
        fl = fcntl.fcntl(slave, fcntl.F_GETFL)
        fcntl.fcntl(slave, fcntl.F_SETFL, fl | os.O_NONBLOCK)
        try:
            shell = os.read(slave, 4096)
        except BlockingIOError:
            pass
    else:
        pump(wait)
    echo = termios.tcgetattr(slave)[3] & termios.ECHO
    print("status: %s" % status)
    text = cmd_out.replace(b"\r", b"").decode(errors="replace")
    text = "".join(l for l in text.splitlines(True) if not any(l.startswith(p) for p in ignore))
    print("out: '%s'" % text.replace("\n", "\\n"))
    print("shell: '%s'" % shell.decode(errors="replace").replace("\n", "\\n"))
    print("echo: %s" % ("on" if echo else "off"))


main()
