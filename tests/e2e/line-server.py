#!/usr/bin/env python3
# line-server.py ADDR PORT TEXT: a TCP server for tests. For each connection it
# reads the client's request up to its blank line (or 5 s of silence), answers
# TEXT and a newline, and closes. Reading first matters: a server that answers
# and closes with the request still unread makes the kernel send an RST, which
# can reach the client before the answer does (curl exit 52/56, a flaky test).
import socket
import socketserver
import sys


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        self.request.settimeout(5)
        got = b""
        try:
            while b"\r\n\r\n" not in got and b"\n\n" not in got and len(got) < 65536:
                chunk = self.request.recv(4096)
                if not chunk:
                    break
                got += chunk
        except OSError:
            pass
        self.request.sendall(sys.argv[3].encode() + b"\n")
        self.request.shutdown(socket.SHUT_WR)


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


Server((sys.argv[1], int(sys.argv[2])), Handler).serve_forever()
