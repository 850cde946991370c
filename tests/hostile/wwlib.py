"""A minimal Windward 2012 client (standard library only), for the hostile clients: the
frame format, a join, and a player that answers every query with the first legal choice.
The runner appends `<host> <team> <password>` to a client's own arguments."""
import socket
import struct
import sys
import threading
import os
import xml.etree.ElementTree as ET


def send(sock, text):
    data = text.encode("utf-8")
    sock.sendall(struct.pack("<i", len(data)) + data)


def recv_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("server closed the connection")
        buf += chunk
    return buf


def recv(sock):
    (length,) = struct.unpack("<i", recv_exact(sock, 4))
    return recv_exact(sock, length).decode("utf-8")


def quote(text):
    return (text.replace("&", "&amp;").replace('"', "&quot;")
            .replace("<", "&lt;").replace(">", "&gt;"))


def join(sock, name, password):
    send(sock, '<join name="%s" password="%s"/>' % (quote(name), quote(password)))


def answer(sock, text):
    msg = ET.fromstring(text)
    if msg.tag == "start-position":
        p = msg.find("points").find("position")
        send(sock, '<start-position direction="NORTH" x="%s" y="%s"/>' % (p.get("x"), p.get("y")))
    elif msg.tag == "turn":
        card = msg.find("cards").findall("card")[0]
        send(sock, '<turn power-down="false" turn="%s"><cards><card priority="%s" move="%s"/>'
             "</cards></turn>" % (msg.get("turn"), card.get("priority"), card.get("move")))


def exit_on_stdin():
    def watch():
        for line in sys.stdin:
            if line.strip() == "exit":
                break
        os._exit(0)
    threading.Thread(target=watch, daemon=True).start()


def split_args():
    """(own arguments, host, team, password)."""
    args = sys.argv[1:]
    return args[:-3], args[-3], args[-2], args[-1]


def play(host, port, name, password):
    """Joins as `name` and plays until the series ends (reconnecting like the 2012
    clients)."""
    import time
    while True:
        try:
            with socket.create_connection((host, port), timeout=30) as sock:
                sock.settimeout(None)
                join(sock, name, password)
                while True:
                    answer(sock, recv(sock))
        except (OSError, ConnectionError, ET.ParseError) as e:
            print("connection: %s; reconnecting" % e, file=sys.stderr, flush=True)
            time.sleep(0.5)
