"""A small WebSocket client (RFC 6455) for the node's subscriptions
(docs/rpc.md "WebSocket and subscriptions"), standard library only.

    with Subscriber("http://127.0.0.1:8645") as s:
        sid = s.subscribe("newHeads")
        head = s.next()          # the result of the next notification
"""

import base64
import hashlib
import json
import os
import socket
import struct
import urllib.parse

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class NoWebSocket(Exception):
    """The node answered HTTP but did not upgrade (it serves no WebSocket)."""


class Closed(ConnectionError):
    """The connection ended; .code and .reason are the node's close frame
    (1001: the node is stopping; 1008: this client read too slowly)."""

    def __init__(self, message, code=None, reason=""):
        super().__init__(message)
        self.code = code
        self.reason = reason


class Subscriber:
    """One WebSocket connection: JSON-RPC calls and subscription
    notifications, read in order."""

    def __init__(self, url, timeout=30.0):
        u = urllib.parse.urlsplit(url if "://" in url else "http://" + url)
        if u.scheme not in ("http", "ws"):
            raise ValueError("only http:// and ws:// URLs are supported here, not %s" % u.scheme)
        self.host, self.port = u.hostname, u.port or 80
        self.sock = socket.create_connection((self.host, self.port), timeout=timeout)
        self._buf = b""
        self._ids = 0
        self._queue = []  # notifications read while waiting for an answer
        key = base64.b64encode(os.urandom(16)).decode()
        path = u.path or "/"
        self.sock.sendall(("GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
                           % (path, self.host, self.port, key)).encode())
        head = self._read_until(b"\r\n\r\n")
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status + b" ":
            self.sock.close()
            raise NoWebSocket("the node at %s did not upgrade to a WebSocket (%s)" % (url, status.decode(errors="replace")))
        want = base64.b64encode(hashlib.sha1(key.encode() + _GUID).digest())
        if want not in head:
            self.sock.close()
            raise NoWebSocket("bad WebSocket handshake from %s" % url)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self._send_frame(0x8, struct.pack("!H", 1000))
        except OSError:
            pass
        self.sock.close()

    # -- frames --------------------------------------------------------

    def _read_until(self, sep):
        while sep not in self._buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise Closed("the node closed the connection")
            self._buf += chunk
        i = self._buf.index(sep) + len(sep)
        out, self._buf = self._buf[:i], self._buf[i:]
        return out

    def _read_exact(self, n):
        while len(self._buf) < n:
            chunk = self.sock.recv(max(65536, n - len(self._buf)))
            if not chunk:
                raise Closed("the node closed the connection")
            self._buf += chunk
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def _send_frame(self, opcode, payload):
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            hdr = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 1 << 16:
            hdr = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            hdr = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(hdr + mask + masked)

    def _read_message(self):
        """The next text message, answering pings; Closed at the end."""
        parts = []
        while True:
            b0, b1 = self._read_exact(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._read_exact(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read_exact(8))[0]
            payload = self._read_exact(n)  # servers do not mask
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                reason = payload[2:].decode(errors="replace")
                raise Closed("the node closed the connection: %s (%s)" % (reason or "no reason", code), code, reason)
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            parts.append(payload)
            if b0 & 0x80:
                return json.loads(b"".join(parts))

    # -- JSON-RPC ------------------------------------------------------

    def call(self, method, *params):
        """Call any method over the WebSocket; the raw result. Raises the
        client's RPCError for an error answer."""
        from .client import RPCError
        self._ids += 1
        rid = self._ids
        self._send_frame(0x1, json.dumps({"jsonrpc": "2.0", "id": rid, "method": method,
                                          "params": list(params)}).encode())
        while True:
            m = self._read_message()
            if m.get("method") == "cowboy_subscription":
                self._queue.append(m["params"])
                continue
            if m.get("id") != rid:
                continue
            if m.get("error"):
                e = m["error"]
                raise RPCError(e.get("code", 0), e.get("message", ""), e.get("data"))
            return m.get("result")

    def subscribe(self, kind, *args):
        """cowboy_subscribe [kind, *args]; the subscription id."""
        return self.call("cowboy_subscribe", kind, *args)

    def next(self):
        """(subscription id, result) of the next notification."""
        if self._queue:
            p = self._queue.pop(0)
        else:
            while True:
                m = self._read_message()
                if m.get("method") == "cowboy_subscription":
                    p = m["params"]
                    break
        return p["subscription"], p["result"]
