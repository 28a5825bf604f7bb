#!/usr/bin/env python3
"""Attackers that try to take every connection of `autograph serve`, and a person's client beside them.

    connection_attack.py PORT MODE [--count 300] [--source 127.0.0.2] [--seconds 15]
                         [--token TOKEN] [--reconnect 0.5] [--probe-every 0.25]

MODE is what each of COUNT attacking connections does (all from SOURCE: Linux routes all of
127.0.0.0/8 to the loopback interface, so 127.0.0.2 is another client address on this machine):

    idle         connects and sends nothing
    slowloris    sends a request head one byte a second, header lines that never end
    events-anon  asks GET /api/events without a credential and stays open after the answer
    events-token asks GET /api/events with the bearer token and reads the stream
    none         no attacker (the probe alone)

A connection the server closes is opened again RECONNECT seconds later, for the whole run. Beside
them, from 127.0.0.1, a probe asks `GET /api/state` with the bearer token on a new connection every
PROBE_EVERY seconds (5 s timeout each) and times the whole exchange. Prints one JSON object:
{"probes", "failures", "failuresInARow" (the most failed probes in a row), "statuses", "max", "p50",
"p99", "attackers": {"opened", "closedByServer", "refused", "openAtEnd"}, "failureReasons"}. Only
the standard library; loopback only.

Also a module: `scripts/load-test.py --attack` runs `Attack` beside its clients.
"""
import argparse
import json
import selectors
import socket
import sys
import threading
import time


class Attack:
    """COUNT attacking connections of one MODE from SOURCE to 127.0.0.1:PORT, on a thread of its own."""

    def __init__(self, port, mode, count=300, source="127.0.0.2", token="", reconnect=0.5, host="127.0.0.1"):
        self.port = port
        self.mode = mode
        self.count = count
        self.source = source
        self.token = token
        self.reconnect = reconnect
        self.host = host
        self.opened = 0
        self.closed_by_server = 0
        self.refused = 0
        self.open_now = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def head(self):
        """What the connection sends: all at once (events), or byte by byte (slowloris)."""
        host = "Host: %s:%d\r\n" % (self.host, self.port)
        if self.mode == "slowloris":
            lines = "".join("X-Padding-%d: %d\r\n" % (i, i) for i in range(100000))
            return ("GET /api/state HTTP/1.1\r\n" + host + lines).encode()
        if self.mode == "events-anon":
            return ("GET /api/events HTTP/1.1\r\n" + host + "Accept: text/event-stream\r\n\r\n").encode()
        if self.mode == "events-token":
            return ("GET /api/events HTTP/1.1\r\n" + host + "Accept: text/event-stream\r\n"
                    + "Authorization: Bearer " + self.token + "\r\n\r\n").encode()
        return b""

    def start(self):
        if self.mode != "none":
            self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(10)

    def stats(self):
        return {"opened": self.opened, "closedByServer": self.closed_by_server, "refused": self.refused,
                "openAtEnd": self.open_now}

    def _connect(self):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((self.source, 0))
            sock.connect_ex((self.host, self.port))
        except OSError:
            sock.close()
            self.refused += 1
            return None
        self.opened += 1
        return sock

    def _run(self):
        selector = selectors.DefaultSelector()
        head = self.head()
        trickle = self.mode == "slowloris"
        # Per connection: [socket, bytes of the head sent, next time to send, connected].
        conns = {}
        waiting = []  # times at which a closed connection is opened again
        now = time.monotonic()
        waiting = [now] * self.count
        while not self._stop.is_set():
            now = time.monotonic()
            due = [t for t in waiting if t <= now]
            waiting = [t for t in waiting if t > now]
            for _ in due:
                sock = self._connect()
                if sock is None:
                    waiting.append(now + self.reconnect)
                    continue
                state = [sock, 0, now, False]
                conns[sock.fileno()] = state
                selector.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE, state)
            self.open_now = len(conns)
            for key, events in selector.select(timeout=0.05):
                state = key.data
                sock = state[0]
                gone = False
                if events & selectors.EVENT_READ:
                    try:
                        data = sock.recv(65536)
                        gone = not data
                    except BlockingIOError:
                        pass
                    except OSError:
                        gone = True
                if not gone and events & selectors.EVENT_WRITE and not state[3]:
                    state[3] = True
                    if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) != 0:
                        gone = True
                    else:
                        selector.modify(sock, selectors.EVENT_READ, state)
                        if head and not trickle:
                            try:
                                sock.sendall(head)
                            except OSError:
                                gone = True
                if gone:
                    self._drop(selector, conns, sock)
                    self.closed_by_server += 1
                    waiting.append(time.monotonic() + self.reconnect)
            if trickle:
                now = time.monotonic()
                for state in list(conns.values()):
                    sock = state[0]
                    if state[3] and state[2] <= now and state[1] < len(head):
                        try:
                            sock.send(head[state[1]:state[1] + 1])
                            state[1] += 1
                            state[2] = now + 1.0
                        except (BlockingIOError, InterruptedError):
                            pass
                        except OSError:
                            self._drop(selector, conns, sock)
                            self.closed_by_server += 1
                            waiting.append(now + self.reconnect)
        for state in list(conns.values()):
            self._drop(selector, conns, state[0])
        selector.close()

    @staticmethod
    def _drop(selector, conns, sock):
        try:
            selector.unregister(sock)
        except (KeyError, ValueError):
            pass
        conns.pop(sock.fileno(), None)
        sock.close()


def probe(port, token, timeout=5.0):
    """One `GET /api/state` with the bearer token on a new connection: (seconds, status or None, reason)."""
    started = time.monotonic()
    request = ("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Bearer %s\r\n"
               "Connection: close\r\n\r\n" % (port, token)).encode()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=("127.0.0.1", 0)) as sock:
            sock.settimeout(max(0.1, timeout - (time.monotonic() - started)))
            sock.sendall(request)
            data = b""
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
                head, separator, body = data.partition(b"\r\n\r\n")
                if separator:
                    length = None
                    for line in head.split(b"\r\n")[1:]:
                        name, _, value = line.partition(b":")
                        if name.strip().lower() == b"content-length":
                            length = int(value.strip())
                    if length is not None and len(body) >= length:
                        break
                sock.settimeout(max(0.1, timeout - (time.monotonic() - started)))
    except OSError as error:
        return time.monotonic() - started, None, type(error).__name__ + ": " + str(error)
    elapsed = time.monotonic() - started
    parts = data.split(b" ", 2)
    if len(parts) < 2 or not parts[1].isdigit():
        return elapsed, None, "no status line (%d bytes)" % len(data)
    return elapsed, int(parts[1]), ""


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("port", type=int)
    parser.add_argument("mode", choices=["idle", "slowloris", "events-anon", "events-token", "none"])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--source", default="127.0.0.2")
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--token", default="")
    parser.add_argument("--reconnect", type=float, default=0.5)
    parser.add_argument("--probe-every", type=float, default=0.25)
    parser.add_argument("--warm-up", type=float, default=1.0, help="seconds of attack before the first probe")
    options = parser.parse_args()

    attack = Attack(options.port, options.mode, options.count, options.source, options.token,
                    options.reconnect).start()
    time.sleep(options.warm_up)
    deadline = time.monotonic() + options.seconds
    latencies, statuses, reasons = [], {}, {}
    failures = 0
    run = longest_run = 0  # failed probes in a row
    while time.monotonic() < deadline:
        started = time.monotonic()
        elapsed, status, reason = probe(options.port, options.token)
        latencies.append(elapsed)
        statuses[str(status)] = statuses.get(str(status), 0) + 1
        run = run + 1 if status != 200 else 0
        longest_run = max(longest_run, run)
        if status != 200:
            failures += 1
            reasons[reason or "status %s" % status] = reasons.get(reason or "status %s" % status, 0) + 1
        time.sleep(max(0.0, options.probe_every - (time.monotonic() - started)))
    attack.stop()
    print(json.dumps({
        "probes": len(latencies), "failures": failures, "failuresInARow": longest_run, "statuses": statuses,
        "max": max(latencies) if latencies else None, "p50": percentile(latencies, 0.5),
        "p99": percentile(latencies, 0.99), "attackers": attack.stats(), "failureReasons": reasons,
    }))


if __name__ == "__main__":
    sys.exit(main())
