#!/usr/bin/env python3
"""Starts Salvo's test servers on free loopback ports, and stops them.

    testservers.py [--only httpbin,nginx,fault] [--large-files]
                   [--nginx-workers N] [--watch-stdin]
    testservers.py --make-docroot DIR [--large-files]

The first form starts the servers in a private temporary directory, waits
until each one answers a request, prints ONE line of JSON on stdout

    {"tmpdir": "...", "docroot": "...",
     "servers": {"httpbin":  {"url": "http://127.0.0.1:41001"},
                 "nginx":    {"url": "http://127.0.0.1:41002"},
                 "nginxH2C": {"url": "http://127.0.0.1:41003"},
                 "nginxTLS": {"url": "https://127.0.0.1:41005",
                              "caBundle": "<tmpdir>/tls/ca.pem"},
                 "nginxTLSFewStreams": {"url": "https://127.0.0.1:41006"},
                 "nginxClientCertificate": {"url": "https://127.0.0.1:41007",
                              "clientCertificate": "<tmpdir>/tls/client.pem",
                              "clientKey": "<tmpdir>/tls/client.key"},
                 "fault":    {"url": "http://127.0.0.1:41004"}}}

and serves until SIGTERM, SIGINT or SIGHUP, or, with --watch-stdin, until its
standard input reaches end of file. Then it stops every server (process
group and all) and deletes the temporary directory. A server that could not
start appears as {"error": "<why, with the tail of its stderr>"} instead of a
URL; the others still run. The exit status is 0 unless the supervisor itself
failed.

--watch-stdin is how the Swift test harness (Tests/SalvoIntegrationTests/Support/
TestServers.swift) ties the servers' life to its own: our stdin is a socket
whose other end only the test process holds, so when the test process exits,
however it exits, we see end of file and clean up. Our children also get PR_SET_PDEATHSIG, so they die with us
even if we are killed with SIGKILL.

The second form only generates the document root (for benchmarks that run
their own nginx): /small, /lorem.txt, /100k.bin, /1m.bin, with --large-files
also /256m.bin, and /SHA256SUMS. Generation is deterministic and skips files
that already have the right size.

Servers:
  httpbin   the PyPI package, under gunicorn (gthread workers), from the
            virtual environment Scripts/setup.sh makes (.build/testenv);
            this script must run with that environment's python.
  nginx     Debian's nginx with Tests/Servers/nginx.conf.template: HTTP/1.1
            keep-alive on one port, h2c (prior knowledge) on another, and TLS
            (HTTP/2 and HTTP/1.1 by ALPN) on a third, with a certificate for
            127.0.0.1 from a CA made for the run (its PEM file is "caBundle");
            and TLS again on a fourth, allowing 4 HTTP/2 streams per connection, and
            on a fifth that requires a client certificate (one is made for the run).
            /private/ asks for HTTP Basic authentication (BASIC_AUTH_USER and
            BASIC_AUTH_PASSWORD below).
  fault     Tests/Servers/fault_server.py.
"""

import argparse
import ctypes
import hashlib
import json
import os
import random
import resource
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
LOOPBACK = "127.0.0.1"
TMP_PREFIX = "salvo-testservers-"

# Upper bound for one server to come up. Generous: a cold httpbin import on a
# loaded 2-core machine takes a few seconds. Never waited out when all is well.
START_DEADLINE_SECONDS = 60.0
# How long a server may take to exit on its stop signal before SIGKILL.
STOP_GRACE_SECONDS = 5.0
# Attempts for nginx, whose ports are chosen before it binds them and may be
# taken by someone else in between.
NGINX_PORT_ATTEMPTS = 5

# Document root contents.
SMALL_SIZE = 100
SMALL_JSON = (b'{"id":1042,"name":"salvo-bench","kind":"small","count":16,"active":true,'
              b'"note":"a 100-byte object"}\n')
LOREM_SIZE = 64 * 1024
BINARY_FILES = {"100k.bin": 100 * 1024, "1m.bin": 1024 * 1024}
LARGE_FILES = {"256m.bin": 256 * 1024 * 1024}
CHUNK = 1024 * 1024
SEED = 0x5A1F0
# nginx's /private/ login; Tests/SalvoIntegrationTests/Support/TestServers.swift names the same.
BASIC_AUTH_USER = "salvo-user"
BASIC_AUTH_PASSWORD = "pw-Zq7-never-shown"
# /dated.txt's modification time: 2001-09-09 01:46:40 UTC.
DATED_MTIME = 1_000_000_000


class StartError(Exception):
    """A server did not start; the message says why."""


# --------------------------------------------------------------------------
# Document root


def small_content():
    line = b"hello from salvo's test server\n"
    return (line * (SMALL_SIZE // len(line) + 1))[:SMALL_SIZE]


def lorem_content():
    lines = []
    total = 0
    number = 0
    while total < LOREM_SIZE:
        line = f"line {number:05d}: the quick brown fox jumps over the lazy dog\n".encode()
        lines.append(line)
        total += len(line)
        number += 1
    return b"".join(lines)[:LOREM_SIZE]


def write_binary(path, size):
    """Writes `size` deterministic bytes, returns their SHA-256.

    Chunk i (1 MiB) is one fixed pseudo-random block with its first 8 bytes
    replaced by i (big-endian), so any misplaced range, even one shifted by
    a whole chunk, changes the content.
    """
    base = random.Random(SEED).randbytes(CHUNK)
    digest = hashlib.sha256()
    with open(path + ".part", "wb") as file:
        index = 0
        remaining = size
        while remaining > 0:
            chunk = (index.to_bytes(8, "big") + base[8:])[:remaining]
            file.write(chunk)
            digest.update(chunk)
            remaining -= len(chunk)
            index += 1
    os.replace(path + ".part", path)
    return digest.hexdigest()


def file_sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def make_docroot(docroot, large_files=False):
    """Creates or completes the document root; returns its path."""
    os.makedirs(docroot, exist_ok=True)
    sums = {}
    for name, content in (("small", small_content()), ("lorem.txt", lorem_content())):
        with open(os.path.join(docroot, name), "wb") as file:
            file.write(content)
        sums[name] = hashlib.sha256(content).hexdigest()
    files = dict(BINARY_FILES)
    if large_files:
        files.update(LARGE_FILES)
    for name, size in files.items():
        path = os.path.join(docroot, name)
        if os.path.exists(path) and os.path.getsize(path) == size:
            sums[name] = file_sha256(path)
        else:
            sums[name] = write_binary(path, size)
    # Keep sums of files generated earlier (e.g. 256m.bin) that we skipped.
    for name in sorted(os.listdir(docroot)):
        if name not in sums and name in LARGE_FILES:
            sums[name] = file_sha256(os.path.join(docroot, name))
    with open(os.path.join(docroot, "SHA256SUMS"), "w") as file:
        for name in sorted(sums):
            file.write(f"{sums[name]}  {name}\n")
    return docroot


# --------------------------------------------------------------------------
# Processes


_libc = ctypes.CDLL(None, use_errno=True)
PR_SET_PDEATHSIG = 1


def _child_setup():
    """Runs in each child between fork and exec.

    The child gets SIGKILL when we die, so a supervisor killed with SIGKILL
    leaves no server behind. (The signal fires when the forking thread ends:
    we fork from the main thread only.) The child is also the leader of a new
    process group (start_new_session), so stopping it stops its workers.
    """
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


class Child:
    """A server process in its own process group, with stderr in a file."""

    def __init__(self, name, argv, tmpdir, stop_signal, pass_fds=(), stdout=subprocess.DEVNULL, env=None):
        self.name = name
        self.stop_signal = stop_signal
        self.stderr_path = os.path.join(tmpdir, f"{name}.stderr")
        with open(self.stderr_path, "wb") as stderr:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                pass_fds=pass_fds, start_new_session=True,
                preexec_fn=_child_setup, env=env, close_fds=True)

    def exited(self):
        return self.process.poll() is not None

    def stderr_tail(self, limit=4000, extra_paths=()):
        text = ""
        for path in (self.stderr_path, *extra_paths):
            try:
                with open(path, "rb") as file:
                    text += file.read().decode("utf-8", "replace")
            except OSError:
                pass
        text = text.strip()
        return text[-limit:] if text else "(no output)"

    def stop(self):
        """Stop signal to the whole group, bounded wait, then SIGKILL."""
        pgid = self.process.pid  # leader of its own group
        try:
            os.killpg(pgid, self.stop_signal)
        except ProcessLookupError:
            pass
        try:
            self.process.wait(timeout=STOP_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        # Sweep the group: the leader's workers may outlive it by a moment.
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


def free_port():
    """A port the kernel considers free right now (it may be taken later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        return sock.getsockname()[1]


def http_probe(port, path, timeout):
    """One GET; returns the status code, or None if the server is not there yet."""
    try:
        with socket.create_connection((LOOPBACK, port), timeout=timeout) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {LOOPBACK}:{port}\r\n"
                         "Connection: close\r\n\r\n".encode())
            status = sock.recv(64)
    except OSError:
        return None
    try:
        return int(status.split(b" ")[1])
    except (IndexError, ValueError):
        return None


H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
H2_EMPTY_SETTINGS = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"


def h2c_probe(port, timeout):
    """True if the port answers the HTTP/2 connection preface with SETTINGS."""
    try:
        with socket.create_connection((LOOPBACK, port), timeout=timeout) as sock:
            sock.sendall(H2_PREFACE + H2_EMPTY_SETTINGS)
            header = sock.recv(9)
    except OSError:
        return False
    return len(header) >= 4 and header[3] == 0x04


def tls_probe(port, ca_file, timeout):
    """True if the port completes a TLS handshake that ca_file verifies (asking for HTTP/1.1
    by ALPN, which this probe speaks) and answers GET /small with 200."""
    try:
        context = ssl.create_default_context(cafile=ca_file)
        context.set_alpn_protocols(["http/1.1"])
        with socket.create_connection((LOOPBACK, port), timeout=timeout) as raw:
            with context.wrap_socket(raw, server_hostname=LOOPBACK) as sock:
                sock.sendall(f"GET /small HTTP/1.1\r\nHost: {LOOPBACK}:{port}\r\n"
                             "Connection: close\r\n\r\n".encode())
                status = sock.recv(64)
    except (OSError, ssl.SSLError):
        return False
    return status.startswith(b"HTTP/1.1 200")


def make_tls_files(directory):
    """A throw-away CA and a server certificate it signed for 127.0.0.1. Returns (ca,
    certificate, key) paths."""
    return make_certificates(directory, "ca", "/CN=Salvo test CA", "server", "/CN=127.0.0.1",
                             "extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1\n")


def make_client_files(directory):
    """A second throw-away CA, and a client certificate it signed. Returns (client CA,
    certificate, key) paths."""
    return make_certificates(directory, "client-ca", "/CN=Salvo test client CA", "client",
                             "/CN=salvo test client", "extendedKeyUsage=clientAuth\n")


def make_certificates(directory, ca_name, ca_subject, name, subject, usage):
    """A CA and a certificate it signed (EC P-256, valid for two days), made with the openssl
    command as CA_NAME.pem and NAME.pem with their keys; `usage` ends the certificate's
    extensions. Returns (ca, certificate, key) paths."""
    os.makedirs(directory, exist_ok=True)
    ca_key, ca = os.path.join(directory, f"{ca_name}.key"), os.path.join(directory, f"{ca_name}.pem")
    key, csr = os.path.join(directory, f"{name}.key"), os.path.join(directory, f"{name}.csr")
    certificate, extensions = os.path.join(directory, f"{name}.pem"), os.path.join(directory, f"{name}.ext")
    with open(extensions, "w") as file:
        file.write("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n" + usage)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run_openssl([
        ["openssl", "req", "-x509", *ec, "-keyout", ca_key, "-out", ca, "-days", "2",
         "-subj", ca_subject, "-addext", "basicConstraints=critical,CA:TRUE",
         "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
        ["openssl", "req", *ec, "-keyout", key, "-out", csr, "-subj", subject],
        ["openssl", "x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
         "-out", certificate, "-days", "2", "-extfile", extensions],
    ])
    return ca, certificate, key


def make_htpasswd(path):
    """The login file of nginx's /private/, its password hashed with `openssl passwd -apr1`."""
    result = subprocess.run(["openssl", "passwd", "-apr1", BASIC_AUTH_PASSWORD], capture_output=True, text=True)
    if result.returncode != 0:
        raise StartError(f"openssl passwd failed: {result.stderr.strip()}")
    with open(path, "w") as file:
        file.write(f"{BASIC_AUTH_USER}:{result.stdout.strip()}\n")
    return path


def run_openssl(commands):
    for command in commands:
        try:
            result = subprocess.run(command, capture_output=True, text=True)
        except FileNotFoundError:
            raise StartError("the openssl command is missing (run Scripts/setup.sh as root)")
        if result.returncode != 0:
            raise StartError(f"{' '.join(command[:3])} failed: {result.stderr.strip()}")


def wait_until(child, ready, deadline, extra_logs=()):
    """Calls ready() until it is true, the child exits or the deadline passes.

    ready() blocks on a real request, so a server that is up answers at once;
    the short pauses only space out connection attempts refused while the
    server has not bound its port yet.
    """
    pause = 0.005
    while True:
        if ready():
            return
        if child.exited():
            raise StartError(f"{child.name} exited with status {child.process.returncode}:\n"
                             + child.stderr_tail(extra_paths=extra_logs))
        if time.monotonic() > deadline:
            raise StartError(f"{child.name} did not answer within {START_DEADLINE_SECONDS:.0f} s:\n"
                             + child.stderr_tail(extra_paths=extra_logs))
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


# --------------------------------------------------------------------------
# Servers


def start_httpbin(tmpdir):
    """httpbin under gunicorn, on a socket we bind and hand over: no port race."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((LOOPBACK, 0))
    listener.listen(1024)
    port = listener.getsockname()[1]
    argv = [sys.executable, "-m", "gunicorn",
            "--bind", f"fd://{listener.fileno()}",
            # Threads, so /delay and /drip do not hold up other tests.
            "--worker-class", "gthread", "--workers", "2", "--threads", "32",
            "--worker-tmp-dir", tmpdir,
            "--no-control-socket",
            "--graceful-timeout", "1",
            "--log-level", "warning",
            "httpbin:app"]
    try:
        child = Child("httpbin", argv, tmpdir, signal.SIGINT, pass_fds=[listener.fileno()])
    finally:
        listener.close()
    try:
        # The socket already listens, so this request simply waits for a worker.
        wait_until(child, lambda: http_probe(port, "/get", timeout=START_DEADLINE_SECONDS) == 200,
                   time.monotonic() + START_DEADLINE_SECONDS)
    except StartError:
        child.stop()
        raise
    return child, {"httpbin": {"url": f"http://{LOOPBACK}:{port}"}}


def nginx_binary():
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if not found:
        raise StartError("nginx is not installed (run Scripts/setup.sh as root)")
    return found


def start_nginx(tmpdir, docroot, workers):
    with open(os.path.join(HERE, "nginx.conf.template")) as file:
        template = file.read()
    multi = workers > 0
    conf_path = os.path.join(tmpdir, "nginx.conf")
    error_log = os.path.join(tmpdir, "nginx.error.log")
    binary = nginx_binary()
    ca, certificate, key = make_tls_files(os.path.join(tmpdir, "tls"))
    client_ca, client_certificate, client_key = make_client_files(os.path.join(tmpdir, "tls"))
    htpasswd = make_htpasswd(os.path.join(tmpdir, "htpasswd"))
    # The decoding benchmark row's body (salvo-bench's NginxConfiguration.smallJSON), kept
    # out of the document root, whose listing the bulk tool's tests mirror.
    with open(os.path.join(tmpdir, "small.json"), "wb") as file:
        file.write(SMALL_JSON)
    # /dated.txt: a file whose Last-Modified is DATED_MTIME, long past.
    dated = os.path.join(tmpdir, "dated.txt")
    with open(dated, "wb") as file:
        file.write(small_content())
    os.utime(dated, (DATED_MTIME, DATED_MTIME))
    last_error = None
    for _ in range(NGINX_PORT_ATTEMPTS):
        port_h1, port_h2c, port_tls, port_few = free_port(), free_port(), free_port(), free_port()
        port_client = free_port()
        if len({port_h1, port_h2c, port_tls, port_few, port_client}) < 5:
            continue
        conf = (template
                .replace("@TMPDIR@", tmpdir)
                .replace("@DOCROOT@", docroot)
                .replace("@PORT_H1@", str(port_h1))
                .replace("@PORT_H2C@", str(port_h2c))
                .replace("@PORT_TLS_FEW_STREAMS@", str(port_few))
                .replace("@PORT_TLS_CLIENT_CERTIFICATE@", str(port_client))
                .replace("@PORT_TLS@", str(port_tls))
                .replace("@CLIENT_CA@", client_ca)
                .replace("@HTPASSWD@", htpasswd)
                .replace("@TLS_CERTIFICATE@", certificate)
                .replace("@TLS_KEY@", key)
                .replace("@MASTER_PROCESS@", "on" if multi else "off")
                .replace("@WORKERS@", str(max(workers, 1)))
                .replace("@USER_LINE@", "user root;" if multi and os.geteuid() == 0 else ""))
        with open(conf_path, "w") as file:
            file.write(conf)
        if os.path.exists(error_log):
            os.remove(error_log)
        argv = [binary, "-p", tmpdir, "-e", error_log, "-c", conf_path, "-g", "daemon off;"]
        child = Child("nginx", argv, tmpdir, signal.SIGTERM)
        try:
            wait_until(child,
                       lambda: http_probe(port_h1, "/small", timeout=5) == 200 and h2c_probe(port_h2c, timeout=5)
                       and tls_probe(port_tls, ca, timeout=5) and tls_probe(port_few, ca, timeout=5),
                       time.monotonic() + START_DEADLINE_SECONDS, extra_logs=[error_log])
        except StartError as error:
            child.stop()
            last_error = error
            if "Address already in use" in str(error):
                continue  # someone took a port between our check and nginx's bind
            raise
        return child, {"nginx": {"url": f"http://{LOOPBACK}:{port_h1}"},
                       "nginxH2C": {"url": f"http://{LOOPBACK}:{port_h2c}"},
                       "nginxTLS": {"url": f"https://{LOOPBACK}:{port_tls}", "caBundle": ca},
                       "nginxTLSFewStreams": {"url": f"https://{LOOPBACK}:{port_few}"},
                       "nginxClientCertificate": {"url": f"https://{LOOPBACK}:{port_client}",
                                                  "clientCertificate": client_certificate, "clientKey": client_key}}
    raise last_error or StartError("nginx: no free ports found")


def start_fault(tmpdir):
    argv = [sys.executable, os.path.join(HERE, "fault_server.py"), "--host", LOOPBACK, "--port", "0"]
    child = Child("fault", argv, tmpdir, signal.SIGTERM, stdout=subprocess.PIPE)
    # It prints its port once it listens; readline blocks until then or EOF.
    line = child.process.stdout.readline()
    try:
        port = int(line)
    except ValueError:
        child.stop()
        raise StartError("fault server did not report a port:\n" + child.stderr_tail())
    try:
        wait_until(child, lambda: http_probe(port, "/ok", timeout=5) == 200,
                   time.monotonic() + START_DEADLINE_SECONDS)
    except StartError:
        child.stop()
        raise
    return child, {"fault": {"url": f"http://{LOOPBACK}:{port}"}}


# --------------------------------------------------------------------------
# Main


def remove_stale_directories():
    """Deletes the temporary directories of supervisors that no longer run.

    We delete our directory on every exit we can see; only SIGKILL (or a
    power cut) leaves one behind. The next run sweeps it up.
    """
    parent = tempfile.gettempdir()
    for name in os.listdir(parent):
        if not name.startswith(TMP_PREFIX):
            continue
        path = os.path.join(parent, name)
        try:
            with open(os.path.join(path, "supervisor.pid")) as file:
                pid = int(file.read())
        except (OSError, ValueError):
            continue  # not ours, or still being set up
        if not process_alive(pid):
            shutil.rmtree(path, ignore_errors=True)


def process_alive(pid):
    """True if `pid` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as file:
            # "pid (comm) state ...": the state follows the last ")".
            return file.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


class Stop(BaseException):
    """Raised from a signal handler to unwind into cleanup (not an Exception,
    so start-up error handling lets it through)."""


def _raise_stop(signum, _frame):
    raise Stop(signum)


def serve(args):
    wanted = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = set(wanted) - {"httpbin", "nginx", "fault"}
    if unknown:
        sys.exit(f"unknown server(s): {', '.join(sorted(unknown))}")

    # Servers inherit our descriptor limit: raise it as far as we may, for
    # tests that open thousands of connections.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    children = []
    tmpdir = None
    # Handlers first, so a signal during start-up still cleans up.
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, _raise_stop)
    try:
        try:
            remove_stale_directories()
            tmpdir = tempfile.mkdtemp(prefix=TMP_PREFIX)
            with open(os.path.join(tmpdir, "supervisor.pid"), "w") as file:
                file.write(f"{os.getpid()}\n")
            docroot = make_docroot(os.path.join(tmpdir, "docroot"), large_files=args.large_files)
            servers = {}
            starters = {"httpbin": lambda: start_httpbin(tmpdir),
                        "nginx": lambda: start_nginx(tmpdir, docroot, args.nginx_workers),
                        "fault": lambda: start_fault(tmpdir)}
            for name in wanted:
                try:
                    child, urls = starters[name]()
                    children.append(child)
                    servers.update(urls)
                except StartError as error:
                    servers[name] = {"error": str(error)}
                    if name == "nginx":
                        servers["nginxH2C"] = {"error": str(error)}
                        servers["nginxTLS"] = {"error": str(error)}
                        servers["nginxTLSFewStreams"] = {"error": str(error)}
                        servers["nginxClientCertificate"] = {"error": str(error)}
        except Exception:
            # Whoever reads our stdout gets the reason, not a silent EOF.
            print(json.dumps({"fatal": traceback.format_exc()}), flush=True)
            raise

        print(json.dumps({"tmpdir": tmpdir, "docroot": docroot, "servers": servers}), flush=True)

        if args.watch_stdin:
            # Returns at end of file: our parent shut its end down or died.
            # (A socket whose peer died with data unread reports a reset
            # instead; that is the same news.)
            try:
                while sys.stdin.buffer.read(4096):
                    pass
            except ConnectionError:
                pass
        else:
            while True:
                signal.pause()
    except Stop:
        pass
    finally:
        # Ignore further signals: the cleanup must run to the end.
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, signal.SIG_IGN)
        for child in reversed(children):
            child.stop()
        if tmpdir:
            shutil.rmtree(tmpdir, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description="Start Salvo's test servers.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__)
    parser.add_argument("--only", default="httpbin,nginx,fault",
                        help="comma-separated servers to start (default: all)")
    parser.add_argument("--large-files", action="store_true",
                        help="also generate /256m.bin in the document root")
    parser.add_argument("--nginx-workers", type=int, default=0,
                        help="0 (default): one nginx process, master_process off; "
                             "N: a master and N workers")
    parser.add_argument("--watch-stdin", action="store_true",
                        help="stop when standard input reaches end of file")
    parser.add_argument("--make-docroot", metavar="DIR",
                        help="only generate the document root in DIR, then exit")
    args = parser.parse_args()
    if args.make_docroot:
        make_docroot(os.path.abspath(args.make_docroot), large_files=args.large_files)
        print(os.path.abspath(args.make_docroot))
        return
    serve(args)


if __name__ == "__main__":
    main()
